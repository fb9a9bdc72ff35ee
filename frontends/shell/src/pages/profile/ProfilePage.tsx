import { Avatar, Badge, Card, Container, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { apiFetch, PageHeader, PageLoader, useCurrentUser, userInitials } from '@qm/ui';
import { IconShieldLock, IconUserCircle } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { ChangePasswordSection } from './ChangePasswordDialog';
import { ProfileForm } from './ProfileForm';

/** Viewing the page is logged as profile_view (docs/product.md §2); failures are only logged locally (docs/product.md §7). */
function useProfileViewActivity(userId: number | undefined) {
  const logged = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (userId === undefined || logged.current === userId) return;
    logged.current = userId;
    apiFetch('/api/user/activity', {
      method: 'POST',
      body: { action: 'profile_view', details: 'Viewed profile page' },
    }).catch((error: unknown) => console.warn('activity log failed', error));
  }, [userId]);
}

/** /profile — "Profile Information" and "Security Settings" (docs/product.md §2). */
export default function ProfilePage() {
  const { user } = useCurrentUser();
  useProfileViewActivity(user?.id);
  if (!user) return <PageLoader message="Loading your profile..." />;

  const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ');
  const initials = userInitials(user);

  return (
    <Container size="md" py="xl">
      <PageHeader title="Profile" subtitle="Manage your account details and security" />
      <Card withBorder radius="md" padding="lg" mb="lg">
        <Group gap="md" wrap="nowrap">
          <Avatar size="lg" radius="xl" color="army">
            {initials}
          </Avatar>
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Title order={2} size="h4">
              {fullName || user.username}
            </Title>
            <Group gap="xs">
              <Text size="sm" c="dimmed">
                @{user.username}
              </Text>
              <Badge variant="light">{user.role}</Badge>
            </Group>
          </Stack>
        </Group>
      </Card>

      <Tabs defaultValue="profile" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="profile" leftSection={<IconUserCircle size={16} />}>
            Profile Information
          </Tabs.Tab>
          <Tabs.Tab value="security" leftSection={<IconShieldLock size={16} />}>
            Security Settings
          </Tabs.Tab>
        </Tabs.List>

        <Tabs.Panel value="profile">
          <Card withBorder radius="md" padding="lg">
            <ProfileForm key={user.id} user={user} />
          </Card>
        </Tabs.Panel>

        <Tabs.Panel value="security">
          <Card withBorder radius="md" padding="lg">
            <Stack gap="sm">
              <Title order={3} size="h4">
                Password
              </Title>
              <Text size="sm" c="dimmed">
                To change your password we first email a 6-digit verification code to your registered address.
                You will then enter your current password and choose a new one.
              </Text>
              <Group>
                <ChangePasswordSection />
              </Group>
            </Stack>
          </Card>
        </Tabs.Panel>
      </Tabs>
    </Container>
  );
}
