import {
  Button,
  Card,
  Container,
  Grid,
  Group,
  Stack,
  Text,
  Textarea,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { ContactBody, type ContactInput, SUPPORT_LIMITS, SUPPORT_MESSAGES as MSG } from '@qm/contracts/rest';
import { apiFetch } from '@qm/ui';
import { IconClock, IconMail, IconMapPin, IconPhone } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { submitErrorMessage } from './contactError';

const DETAILS = [
  { icon: IconMail, label: 'Email', value: 'support@quartermaster.example' },
  { icon: IconPhone, label: 'Phone', value: '+91 11 2345 6789' },
  { icon: IconMapPin, label: 'Office', value: 'New Delhi, India' },
  { icon: IconClock, label: 'Hours', value: 'Monday to Friday, 09:00–18:00 IST' },
];

export default function ContactPage() {
  // The API's own schema (@qm/contracts): the same required fields, lengths and messages.
  const form = useForm<ContactInput>({
    mode: 'controlled',
    initialValues: { fullName: '', email: '', subject: '', message: '' },
    validate: zod4Resolver(ContactBody),
  });

  const submit = useMutation({
    mutationFn: (values: ContactBody) => apiFetch('/api/contact', { method: 'POST', body: values }),
    onSuccess: () => {
      form.reset();
      notifications.show({ color: 'green', title: MSG.submitSuccessTitle, message: MSG.submitSuccess });
    },
    onError: (error) => {
      // docs/product.md §8: "Failed to submit query" with the server's message, when it is one meant for visitors.
      notifications.show({ color: 'red', title: MSG.submitFailed, message: submitErrorMessage(error) });
    },
  });

  return (
    <Container size="lg" py="xl">
      <Stack gap={4} mb="xl">
        <Title order={1}>Contact Us</Title>
        <Text c="dimmed">
          Questions about your account, an order or the platform? Send us a message and our support team will
          reply by email.
        </Text>
      </Stack>
      <Grid gutter="xl">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Card withBorder radius="md" padding="lg">
            <form onSubmit={form.onSubmit((values) => submit.mutate(ContactBody.parse(values)))} noValidate>
              <Stack>
                <TextInput
                  label="Full name"
                  name="fullName"
                  autoComplete="name"
                  maxLength={SUPPORT_LIMITS.fullNameMax}
                  withAsterisk
                  key={form.key('fullName')}
                  {...form.getInputProps('fullName')}
                />
                <TextInput
                  label="Email"
                  name="email"
                  type="email"
                  autoComplete="email"
                  withAsterisk
                  key={form.key('email')}
                  {...form.getInputProps('email')}
                />
                <TextInput
                  label="Subject"
                  name="subject"
                  maxLength={SUPPORT_LIMITS.subjectMax}
                  withAsterisk
                  key={form.key('subject')}
                  {...form.getInputProps('subject')}
                />
                <Textarea
                  label="Message"
                  name="message"
                  minRows={5}
                  maxLength={SUPPORT_LIMITS.messageMax}
                  autosize
                  withAsterisk
                  key={form.key('message')}
                  {...form.getInputProps('message')}
                />
                <Group justify="flex-end">
                  <Button type="submit" disabled={submit.isPending} data-testid="contact-submit">
                    {submit.isPending ? 'Submitting...' : 'Send Message'}
                  </Button>
                </Group>
              </Stack>
            </form>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack>
            {DETAILS.map(({ icon: Icon, label, value }) => (
              <Group key={label} wrap="nowrap" align="flex-start">
                <ThemeIcon variant="light" size="lg">
                  <Icon size={18} />
                </ThemeIcon>
                <div>
                  <Text fw={600}>{label}</Text>
                  <Text c="dimmed" size="sm">
                    {value}
                  </Text>
                </div>
              </Group>
            ))}
          </Stack>
        </Grid.Col>
      </Grid>
    </Container>
  );
}
