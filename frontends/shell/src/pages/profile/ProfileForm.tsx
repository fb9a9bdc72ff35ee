import { Button, Group, NumberInput, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { ProfileForm as ProfileSchema } from '@qm/contracts/rest';
import { apiFetch, CURRENT_USER_QUERY_KEY, errorMessage, type CurrentUser } from '@qm/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { EmailChangeDialog } from './EmailChangeDialog';
import { useEmailChangeFlow } from './useEmailChangeFlow';

type ProfileValues = {
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
  address: string;
  bio: string;
  licenseNumber: string;
  yearsOfExperience: number | string;
};

const text = (value: string | null | undefined) => value ?? '';
const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

function valuesOf(user: CurrentUser): ProfileValues {
  return {
    firstName: text(user.firstName),
    lastName: text(user.lastName),
    email: text(user.email),
    phoneNumber: text(user.phoneNumber),
    address: text(user.address),
    bio: text(user.bio),
    licenseNumber: text(user.licenseNumber),
    yearsOfExperience: user.yearsOfExperience ?? '',
  };
}

/**
 * PATCH /api/user/profile body. Optional fields left empty are sent empty, which clears them; an empty
 * yearsOfExperience is sent as null for the same reason (the product reference's "becomes undefined" would leave an old
 * value in place with a PATCH). Only a Manufacturer sends licenseNumber and yearsOfExperience.
 */
function bodyOf(values: ProfileValues, manufacturer: boolean) {
  const body: Record<string, unknown> = {
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    email: values.email.trim(),
    phoneNumber: values.phoneNumber.trim(),
    address: values.address.trim(),
    bio: values.bio.trim(),
  };
  if (manufacturer) {
    body.licenseNumber = values.licenseNumber.trim();
    body.yearsOfExperience = values.yearsOfExperience === '' ? null : Number(values.yearsOfExperience);
  }
  return body;
}

/**
 * The "Profile Information" tab (docs/product.md §2 /profile). Another email address is not saved with the
 * rest: the other fields are, then the email change dialog asks for the current password and the
 * code sent to the new address.
 */
export function ProfileForm({ user }: { user: CurrentUser }) {
  const queryClient = useQueryClient();
  const manufacturer = user.role === 'Manufacturer';
  const form = useForm<ProfileValues>({
    mode: 'controlled',
    initialValues: valuesOf(user),
    validate: zod4Resolver(ProfileSchema),
  });

  const emailChange = useEmailChangeFlow((email) => {
    const saved = { ...form.getInitialValues(), email };
    form.setInitialValues(saved);
    form.setFieldValue('email', email);
    form.resetDirty({ ...form.getValues(), email });
  });

  const save = useMutation({
    mutationFn: (values: ProfileValues) =>
      apiFetch('/api/user/profile', { method: 'PATCH', body: bodyOf(values, manufacturer) }),
    onSuccess: async (_data, values) => {
      form.setInitialValues(values);
      form.resetDirty({ ...form.getValues(), ...values });
      await queryClient.invalidateQueries({ queryKey: CURRENT_USER_QUERY_KEY });
      notifications.show({
        color: 'green',
        title: 'Profile updated',
        message: 'Your profile has been updated successfully.',
      });
    },
    onError: (error) => {
      notifications.show({
        color: 'red',
        title: 'Update failed',
        message: errorMessage(error, 'Failed to update profile'),
      });
    },
  });

  // The dialog sits beside the form, not in it: React passes a portal's submit on to the outer form.
  return (
    <>
      <form
        noValidate
        aria-label="Profile information"
        onSubmit={form.onSubmit((values) => {
          if (sameAddress(values.email, text(user.email))) return save.mutate(values);
          // The rest is saved with the address in effect; the new one goes through the dialog.
          const rest = { ...values, email: form.getInitialValues().email };
          const othersChanged = (Object.keys(values) as (keyof ProfileValues)[]).some(
            (k) => k !== 'email' && form.isDirty(k),
          );
          if (othersChanged) save.mutate(rest);
          emailChange.open(values.email.trim());
        })}
      >
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label="First Name"
              autoComplete="given-name"
              required
              {...form.getInputProps('firstName')}
            />
            <TextInput
              label="Last Name"
              autoComplete="family-name"
              required
              {...form.getInputProps('lastName')}
            />
            <TextInput
              label="Email"
              type="email"
              autoComplete="email"
              required
              {...form.getInputProps('email')}
            />
            <TextInput
              label="Phone Number"
              type="tel"
              autoComplete="tel"
              placeholder="+91 98765 43210"
              {...form.getInputProps('phoneNumber')}
            />
          </SimpleGrid>
          <TextInput
            label="Address"
            autoComplete="street-address"
            placeholder="Unit, base or office address"
            {...form.getInputProps('address')}
          />
          <Textarea
            label="Bio"
            placeholder="A few words about you or your organisation"
            autosize
            minRows={3}
            maxRows={8}
            {...form.getInputProps('bio')}
          />
          {manufacturer && (
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <TextInput
                label="License Number"
                description="Your manufacturing license number, e.g. MFG-1234-5678"
                placeholder="MFG-1234-5678"
                {...form.getInputProps('licenseNumber')}
              />
              <NumberInput
                label="Years of Experience"
                description="Years your company has manufactured defence equipment"
                min={0}
                max={100}
                allowDecimal={false}
                allowNegative={false}
                {...form.getInputProps('yearsOfExperience')}
              />
            </SimpleGrid>
          )}
          <Group justify="flex-end">
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving...' : 'Save Changes'}
            </Button>
          </Group>
        </Stack>
      </form>
      <EmailChangeDialog flow={emailChange} />
    </>
  );
}
