import {
  Anchor,
  Box,
  Button,
  Container,
  Divider,
  Grid,
  Group,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconMail, IconMapPin, IconPhone } from '@tabler/icons-react';
import { useState, useSyncExternalStore, type FormEvent } from 'react';
import { Link } from 'react-router-dom';

const COLUMNS: { title: string; links: { to: string; label: string }[] }[] = [
  {
    title: 'Resources',
    links: [
      { to: '/guide', label: 'User Guide' },
      { to: '/tools-and-technology', label: 'Tools & Technology' },
      { to: '/roadmap', label: 'Project Roadmap' },
      { to: '/faq', label: 'FAQ' },
    ],
  },
  {
    title: 'Company',
    links: [
      { to: '/about', label: 'About Us' },
      { to: '/contact', label: 'Contact' },
      { to: '/careers', label: 'Careers' },
    ],
  },
  {
    title: 'Legal',
    links: [
      { to: '/terms', label: 'Terms & Conditions' },
      { to: '/privacy', label: 'Privacy Policy' },
      { to: '/refund', label: 'Refund Policy' },
    ],
  },
];

function Newsletter() {
  const [email, setEmail] = useState('');

  const subscribe = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setEmail('');
    notifications.show({
      title: 'Thanks for your interest',
      message: 'The newsletter is not available yet; we will announce it here.',
    });
  };

  return (
    <Stack gap="xs">
      <Title order={2} size="h5">
        Newsletter
      </Title>
      <Text size="sm" c="dimmed">
        Platform updates and procurement news, once a month.
      </Text>
      <form onSubmit={subscribe}>
        <Stack gap="xs">
          <TextInput
            type="email"
            required
            aria-label="Newsletter email"
            placeholder="you@unit.gov.in"
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
          />
          <Button type="submit" fullWidth>
            Subscribe
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}

/** The year the bundle was built in (rspack.shared.mjs; the prerender defines it too). */
declare const __QM_BUILD_YEAR__: number;

const unchanging = () => () => undefined;

/**
 * This year. While React hydrates the prerendered landing page it is the build's year, which the
 * prerender wrote, so that the markup matches; React renders the real one right after (ADR 018).
 */
function useCurrentYear(): number {
  return useSyncExternalStore(
    unchanging,
    () => new Date().getFullYear(),
    () => __QM_BUILD_YEAR__,
  );
}

export function Footer() {
  const year = useCurrentYear();
  return (
    <Box component="footer" className="qm-footer" py="xl" mt="xl">
      <Container size="lg">
        <Grid gutter="xl">
          <Grid.Col span={{ base: 12, md: 4 }}>
            <Stack gap="xs">
              <Title order={2} size="h4">
                Quartermaster
              </Title>
              <Text size="sm" c="dimmed">
                Secure procurement of military equipment and supplies: verified buyers and manufacturers, a
                prepaid wallet and full administrator oversight.
              </Text>
              <Group gap={6} wrap="nowrap">
                <IconMail size={16} />
                <Anchor href="mailto:support@quartermaster.example" size="sm">
                  support@quartermaster.example
                </Anchor>
              </Group>
              <Group gap={6} wrap="nowrap">
                <IconPhone size={16} />
                <Text size="sm">+91 11 2345 6789</Text>
              </Group>
              <Group gap={6} wrap="nowrap">
                <IconMapPin size={16} />
                <Text size="sm">New Delhi, India</Text>
              </Group>
            </Stack>
          </Grid.Col>
          {COLUMNS.map((column) => (
            <Grid.Col key={column.title} span={{ base: 6, sm: 4, md: 'auto' }}>
              <Stack gap={6}>
                <Title order={2} size="h5">
                  {column.title}
                </Title>
                {column.links.map((link) => (
                  <Anchor key={link.to} component={Link} to={link.to} size="sm" c="dimmed">
                    {link.label}
                  </Anchor>
                ))}
              </Stack>
            </Grid.Col>
          ))}
          <Grid.Col span={{ base: 12, md: 3 }}>
            <Newsletter />
          </Grid.Col>
        </Grid>
        <Divider my="lg" />
        <Text size="sm" c="dimmed" ta="center">
          © {year} Quartermaster. All rights reserved.
        </Text>
      </Container>
    </Box>
  );
}
