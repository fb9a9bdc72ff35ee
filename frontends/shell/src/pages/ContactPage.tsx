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
import { apiFetch, errorMessage } from '@qm/ui';
import { IconClock, IconMail, IconMapPin, IconPhone } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { z } from 'zod';

const contactSchema = z.object({
  fullName: z.string().trim().min(1, 'Full name is required'),
  email: z.email('Enter a valid email address'),
  subject: z.string().trim().min(1, 'Subject is required'),
  message: z.string().trim().min(1, 'Message is required'),
});

type ContactForm = z.infer<typeof contactSchema>;

const DETAILS = [
  { icon: IconMail, label: 'Email', value: 'support@quartermaster.example' },
  { icon: IconPhone, label: 'Phone', value: '+91 11 2345 6789' },
  { icon: IconMapPin, label: 'Office', value: 'New Delhi, India' },
  { icon: IconClock, label: 'Hours', value: 'Monday to Friday, 09:00–18:00 IST' },
];

export default function ContactPage() {
  const form = useForm<ContactForm>({
    mode: 'controlled',
    initialValues: { fullName: '', email: '', subject: '', message: '' },
    validate: zod4Resolver(contactSchema),
  });

  const submit = useMutation({
    mutationFn: (values: ContactForm) => apiFetch('/api/contact', { method: 'POST', body: values }),
    onSuccess: () => {
      form.reset();
      notifications.show({
        color: 'green',
        title: 'Query Submitted Successfully',
        message: 'Thank you for contacting us. Our team will review your query and get back to you shortly.',
      });
    },
    onError: (error) => {
      notifications.show({
        color: 'red',
        title: 'Failed to submit query',
        message: errorMessage(error, 'Please try again later.'),
      });
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
            <form onSubmit={form.onSubmit((values) => submit.mutate(contactSchema.parse(values)))} noValidate>
              <Stack>
                <TextInput
                  label="Full name"
                  name="fullName"
                  autoComplete="name"
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
                  withAsterisk
                  key={form.key('subject')}
                  {...form.getInputProps('subject')}
                />
                <Textarea
                  label="Message"
                  name="message"
                  minRows={5}
                  autosize
                  withAsterisk
                  key={form.key('message')}
                  {...form.getInputProps('message')}
                />
                <Group justify="flex-end">
                  <Button type="submit" disabled={submit.isPending}>
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
