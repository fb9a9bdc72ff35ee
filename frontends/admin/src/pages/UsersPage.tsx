import { Alert, Badge, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { User } from '@qm/contracts/rest';
import {
  apiFetch,
  EmptyState,
  errorMessage,
  PageHeader,
  PageLoader,
  ResponsiveTable,
  type ResponsiveColumn,
} from '@qm/ui';
import { IconCheck, IconUsers, IconX } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';

/** GET /api/users: the list every decision invalidates (spec §7). */
export const USERS_QUERY_KEY = ['/api/users'] as const;

type StatusChange = { userId: number; status: 'approved' | 'rejected'; rejectionReason?: string };

const STATUS_COLORS: Record<User['status'], string> = {
  pending: 'yellow',
  approved: 'green',
  rejected: 'red',
};

/** Badges keep their whole word in a narrow table column (Mantine would cut it with an ellipsis). */
const BADGE_STYLES = { label: { overflow: 'visible' } } as const;

/** Long usernames and emails wrap inside their column instead of widening the table. */
const WRAP_ANYWHERE = { overflowWrap: 'anywhere' } as const;

function RoleBadge({ user }: { user: User }) {
  return (
    <Badge variant="light" color={user.role === 'Admin' ? 'grape' : 'gray'} styles={BADGE_STYLES}>
      {user.role}
    </Badge>
  );
}

function StatusBadge({ user }: { user: User }) {
  return (
    <Badge color={STATUS_COLORS[user.status]} variant="light" styles={BADGE_STYLES}>
      {user.status}
    </Badge>
  );
}

const pendingFirst = (user: User) => (user.status === 'pending' ? 0 : 1);

const fullName = (user: User) => [user.firstName, user.lastName].filter(Boolean).join(' ');

/** The reason entry of a rejection: Confirm Rejection only once the reason is non-blank (spec §2, §5). */
function RejectDialog({
  user,
  submitting,
  onCancel,
  onConfirm,
}: {
  user: User | null;
  submitting: boolean;
  onCancel: () => void;
  onConfirm: (reason: string) => void;
}) {
  const [reason, setReason] = useState('');
  const blank = reason.trim().length === 0;
  const close = () => {
    setReason('');
    onCancel();
  };

  return (
    <Modal
      opened={user !== null}
      onClose={close}
      title="Reject User"
      centered
      radius="md"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!blank) onConfirm(reason.trim());
        }}
      >
        <Stack gap="md">
          <Text size="sm">
            Reject the registration of <strong>{user?.username}</strong>
            {user && fullName(user) ? ` (${fullName(user)})` : ''}? The reason is emailed to them.
          </Text>
          <Textarea
            label="Reason for rejection"
            placeholder="Explain why this registration is rejected"
            required
            autosize
            minRows={3}
            maxLength={1000}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            data-autofocus
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" color="red" disabled={blank} loading={submitting}>
              Confirm Rejection
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function DecisionButtons({
  user,
  busy,
  approving,
  onApprove,
  onReject,
}: {
  user: User;
  busy: boolean;
  approving: boolean;
  onApprove: () => void;
  onReject: () => void;
}) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Button
        size="xs"
        color="green"
        leftSection={<IconCheck size={14} />}
        loading={approving}
        disabled={busy}
        onClick={onApprove}
        aria-label={`Approve ${user.username}`}
      >
        Approve
      </Button>
      <Button
        size="xs"
        color="red"
        variant="light"
        leftSection={<IconX size={14} />}
        disabled={busy}
        onClick={onReject}
        aria-label={`Reject ${user.username}`}
      >
        Reject
      </Button>
    </Group>
  );
}

/** The table's columns; on a phone each user is a card (username and status on top, actions below). */
function userColumns(actions: (user: User) => ReactNode): ResponsiveColumn<User>[] {
  return [
    {
      header: 'Username',
      cell: (user) => (
        <Text size="sm" fw={500} style={WRAP_ANYWHERE}>
          {user.username}
        </Text>
      ),
      hideOnCard: true,
    },
    { header: 'Full Name', cell: fullName },
    {
      header: 'Email',
      cell: (user) => (
        <Text size="sm" style={WRAP_ANYWHERE}>
          {user.email}
        </Text>
      ),
      wide: true,
    },
    { header: 'Role', cell: (user) => <RoleBadge user={user} /> },
    { header: 'Status', cell: (user) => <StatusBadge user={user} />, hideOnCard: true },
    {
      header: 'Actions',
      cell: (user) =>
        actions(user) ?? (
          <Text size="sm" c="dimmed">
            —
          </Text>
        ),
      hideOnCard: true,
    },
  ];
}

/** /admin/users — approve or reject pending registrations (spec §2 "User management"). */
export function UsersPage() {
  const queryClient = useQueryClient();
  const [rejecting, setRejecting] = useState<User | null>(null);
  const users = useQuery({
    queryKey: USERS_QUERY_KEY,
    queryFn: ({ signal }) => apiFetch<User[]>('/api/users', { signal }),
  });

  const update = useMutation({
    mutationFn: ({ userId, ...body }: StatusChange) =>
      apiFetch(`/api/users/${userId}/status`, { method: 'PATCH', body }),
    // A decision is not repeated: a retry after a lost answer would only meet "already approved" (409).
    retry: false,
    onSuccess: () => {
      setRejecting(null);
      notifications.show({ color: 'green', title: 'Success', message: 'User status has been updated' });
    },
    onError: (error) => {
      notifications.show({
        color: 'red',
        title: 'Error',
        message: errorMessage(error, 'Failed to update user status'),
      });
    },
    // Refreshed after either outcome: a refusal (409) usually means someone else decided first.
    onSettled: () => queryClient.invalidateQueries({ queryKey: USERS_QUERY_KEY }),
  });
  // Pending registrations first (they need a decision), otherwise in the server's order.
  const rows = users.data ? [...users.data].sort((a, b) => pendingFirst(a) - pendingFirst(b)) : [];
  const busyFor = (userId: number) => update.isPending && update.variables?.userId === userId;
  const actions = (user: User) =>
    user.status === 'pending' ? (
      <DecisionButtons
        user={user}
        busy={busyFor(user.id)}
        approving={busyFor(user.id) && update.variables?.status === 'approved'}
        onApprove={() => update.mutate({ userId: user.id, status: 'approved' })}
        onReject={() => setRejecting(user)}
      />
    ) : null;

  return (
    <>
      <PageHeader title="User Management" subtitle="Review registrations and approve or reject accounts" />
      {users.isPending ? (
        <PageLoader message="Loading users..." />
      ) : users.isError ? (
        <Alert color="red" title="Failed to fetch users">
          {errorMessage(users.error, 'Failed to fetch users')}
        </Alert>
      ) : users.data.length === 0 ? (
        <EmptyState icon={<IconUsers size={24} />} title="No users found" />
      ) : (
        <ResponsiveTable
          rows={rows}
          columns={userColumns(actions)}
          rowKey={(user) => user.id}
          label="Users"
          minWidth={820}
          rowAttributes={(user) => ({ 'data-testid': `user-row-${user.username}` })}
          cardAttributes={(user) => ({ 'data-testid': `user-card-${user.username}` })}
          cardTitle={(user) => user.username}
          cardBadge={(user) => <StatusBadge user={user} />}
          cardFooter={actions}
        />
      )}
      <RejectDialog
        key={rejecting?.id ?? 'none'}
        user={rejecting}
        submitting={update.isPending}
        onCancel={() => setRejecting(null)}
        onConfirm={(reason) =>
          rejecting && update.mutate({ userId: rejecting.id, status: 'rejected', rejectionReason: reason })
        }
      />
    </>
  );
}
