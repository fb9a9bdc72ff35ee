import { Button, Group, List, Modal, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconBan,
  IconClockHour4,
  IconDatabaseOff,
  IconLock,
  IconMailCheck,
  IconSearch,
  IconLogin,
  IconBell,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

/** The texts of the dialogs (docs/product.md §2 "Dialogs on /auth"). */
export const ACCESS_DENIED_ADMIN_PORTAL =
  'Normal user logins are not allowed in the admin portal. Please use the regular login page.';
export const ACCESS_DENIED_USER_PORTAL =
  'Administrator accounts cannot sign in here. Please use the admin portal to sign in.';

interface DialogFrameProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  icon: ReactNode;
  color: string;
  children: ReactNode;
  actions: ReactNode;
}

/** A centred dialog with an icon and a title; Mantine's Modal traps focus, closes on Escape and labels itself. */
function DialogFrame({ opened, onClose, title, icon, color, children, actions }: DialogFrameProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      centered
      size="md"
      radius="md"
      withCloseButton={false}
      title={
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon size={40} radius="xl" variant="light" color={color}>
            {icon}
          </ThemeIcon>
          <Title order={2} size="h3">
            {title}
          </Title>
        </Group>
      }
    >
      <Stack gap="md">
        {children}
        <Group justify="flex-end" gap="sm" mt="xs">
          {actions}
        </Group>
      </Stack>
    </Modal>
  );
}

function ContactSupportButton({ onClose }: { onClose: () => void }) {
  return (
    <Button component={Link} to="/contact" onClick={onClose}>
      Contact Support
    </Button>
  );
}

/** A pending account tried to sign in (docs/product.md §2: all of its text, Close and Contact Support). */
export function AccountUnderReviewDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <DialogFrame
      opened={opened}
      onClose={onClose}
      title="Account Under Review"
      icon={<IconClockHour4 size={22} />}
      color="yellow"
      actions={
        <>
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <ContactSupportButton onClose={onClose} />
        </>
      }
    >
      <Text>
        Your registration is pending administrative approval. This process typically takes 2-3 business days.
      </Text>
      <div>
        <Text fw={600} mb="xs">
          What happens next?
        </Text>
        <List spacing="xs" size="sm" center>
          <List.Item icon={<IconSearch size={16} />}>Our team will review your application</List.Item>
          <List.Item icon={<IconMailCheck size={16} />}>
            You will receive an email once your account is approved
          </List.Item>
          <List.Item icon={<IconLogin size={16} />}>
            After approval, you can log in and use the platform
          </List.Item>
          <List.Item icon={<IconBell size={16} />}>
            We will send regular updates to your registered email
          </List.Item>
        </List>
      </div>
      <Text size="sm" c="dimmed">
        Have a question about your application? Our support team is happy to help.
      </Text>
    </DialogFrame>
  );
}

/** A rejected account tried to sign in: the server's message (with the reason) and the way to support. */
export function AccountRejectedDialog({
  opened,
  onClose,
  message,
}: {
  opened: boolean;
  onClose: () => void;
  message: string;
}) {
  return (
    <DialogFrame
      opened={opened}
      onClose={onClose}
      title="Account Rejected"
      icon={<IconBan size={22} />}
      color="red"
      actions={
        <>
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <ContactSupportButton onClose={onClose} />
        </>
      }
    >
      <Text>
        {message ||
          'Your account registration has been rejected. Please contact support for more information.'}
      </Text>
      <Text size="sm" c="dimmed">
        If you believe this is a mistake, please contact support.
      </Text>
    </DialogFrame>
  );
}

/** The joke dialog for an SQL-looking password; Back to Login resets the form. */
export function SqlInjectorDialog({ opened, onBack }: { opened: boolean; onBack: () => void }) {
  return (
    <DialogFrame
      opened={opened}
      onClose={onBack}
      title="Hey SQL Injector"
      icon={<IconDatabaseOff size={22} />}
      color="orange"
      actions={
        <Button onClick={onBack} data-autofocus>
          Back to Login
        </Button>
      }
    >
      <Text>Nice try! That password looks a lot like an SQL injection attempt.</Text>
      <Text size="sm" c="dimmed">
        Our systems do not build queries from what you type, so there is nothing to find here. Please sign in
        with your real credentials.
      </Text>
    </DialogFrame>
  );
}

/**
 * Sign-in at the wrong portal. On /admin a non-admin gets the product reference's text and a way to the regular login;
 * on /auth an administrator is sent to the admin portal.
 */
export function AccessDeniedDialog({
  opened,
  onClose,
  portal,
}: {
  opened: boolean;
  onClose: () => void;
  portal: 'user' | 'admin';
}) {
  const toAdmin = portal === 'user';
  return (
    <DialogFrame
      opened={opened}
      onClose={onClose}
      title="Access Denied"
      icon={<IconLock size={22} />}
      color="red"
      actions={
        <>
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button component={Link} to={toAdmin ? '/admin' : '/auth'} onClick={onClose}>
            {toAdmin ? 'Go to Admin Login' : 'Go to Regular Login'}
          </Button>
        </>
      }
    >
      <Text>{toAdmin ? ACCESS_DENIED_USER_PORTAL : ACCESS_DENIED_ADMIN_PORTAL}</Text>
    </DialogFrame>
  );
}
