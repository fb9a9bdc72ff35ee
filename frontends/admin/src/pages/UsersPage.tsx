import { Alert, Badge, Button, Group, Modal, Select, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type AdminUsersPage, type User, USER_ROLES, USER_STATUSES } from '@qm/contracts/rest';
import {
  apiFetch,
  EmptyState,
  errorMessage,
  PageHeader,
  PageLoader,
  ResponsiveTable,
  type ResponsiveColumn,
  toQueryString,
} from '@qm/ui';
import { IconCheck, IconUsers, IconX } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ListPager } from '../components/ListPager';
import { ListSearch } from '../components/ListSearch';
import { RowDetailButton } from '../components/RowDetailButton';
import { UserDetailsDialog } from '../components/UserDetailsDialog';
import { useListParams } from '../listParams';

/** GET /api/users: the list every decision invalidates (docs/product.md §7). */
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

/** GET /api/admin/users: the paged list of this page (the whole list's key above stays for other pages). */
export const ADMIN_USERS_QUERY_KEY = ['/api/admin/users'] as const;

/** The filters as URL parameters (absent ones removed). */
const filtersOf = (f: { search?: string; status?: string; role?: string }) => ({
  search: f.search ?? '',
  status: f.status ?? '',
  role: f.role ?? '',
});

const fullName = (user: User) => [user.firstName, user.lastName].filter(Boolean).join(' ');

/** The reason entry of a rejection: Confirm Rejection only once the reason is non-blank (docs/product.md §2, §5). */
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
function userColumns(
  actions: (user: User) => ReactNode,
  onOpen: (user: User) => void,
): ResponsiveColumn<User>[] {
  return [
    {
      header: 'Username',
      cell: (user) => (
        <RowDetailButton onClick={() => onOpen(user)} testId="user-open">
          {user.username}
        </RowDetailButton>
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

const PAGE_SIZE = 20;

const STATUS_OPTIONS = [
  { value: '', label: 'All statuses' },
  ...USER_STATUSES.map((status) => ({
    value: status,
    label: status.charAt(0).toUpperCase() + status.slice(1),
  })),
];
const ROLE_OPTIONS = [
  { value: '', label: 'All roles' },
  ...USER_ROLES.map((role) => ({ value: role, label: role })),
];
const oneOf = <T extends string>(values: readonly T[], value: string): T | undefined =>
  (values as readonly string[]).includes(value) ? (value as T) : undefined;

/**
 * /admin/users — approve or reject pending registrations (docs/product.md §2 "User management"), over a list the
 * server searches (username, name, email), filters (status, role) and pages; the state is in the URL.
 */
export function UsersPage() {
  const queryClient = useQueryClient();
  const [rejecting, setRejecting] = useState<User | null>(null);
  const [opened, setOpened] = useState<User | null>(null);
  const list = useListParams<'search' | 'status' | 'role'>();
  const filters = {
    search: list.get('search') || undefined,
    status: oneOf(USER_STATUSES, list.get('status')),
    role: oneOf(USER_ROLES, list.get('role')),
  };
  const page = list.page;
  const users = useQuery({
    queryKey: [...ADMIN_USERS_QUERY_KEY, { ...filters, page }],
    queryFn: ({ signal }) =>
      apiFetch<AdminUsersPage>(
        `/api/admin/users${toQueryString({ ...filters, page, pageSize: PAGE_SIZE })}`,
        {
          signal,
        },
      ),
    placeholderData: keepPreviousData,
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
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: USERS_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: ADMIN_USERS_QUERY_KEY }),
      ]),
  });
  const rows = users.data?.users ?? [];
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
      <Group mb="sm" gap="sm" align="flex-end">
        <ListSearch
          label="Search users by name, username or email"
          placeholder="Search by name, username or email..."
          value={filters.search ?? ''}
          onSearch={(search) => list.set({ ...filtersOf(filters), search }, { replace: true })}
        />
        <Select
          aria-label="Filter by status"
          data={STATUS_OPTIONS}
          value={filters.status ?? ''}
          onChange={(status) => list.set({ ...filtersOf(filters), status: status ?? '' })}
          allowDeselect={false}
          w={{ base: '100%', xs: 170 }}
        />
        <Select
          aria-label="Filter by role"
          data={ROLE_OPTIONS}
          value={filters.role ?? ''}
          onChange={(role) => list.set({ ...filtersOf(filters), role: role ?? '' })}
          allowDeselect={false}
          w={{ base: '100%', xs: 170 }}
        />
      </Group>
      {users.isPending ? (
        <PageLoader message="Loading users..." />
      ) : users.isError ? (
        <Alert color="red" title="Failed to fetch users">
          {errorMessage(users.error, 'Failed to fetch users')}
        </Alert>
      ) : rows.length === 0 ? (
        <EmptyState icon={<IconUsers size={24} />} title="No users found" />
      ) : (
        <ResponsiveTable
          rows={rows}
          columns={userColumns(actions, setOpened)}
          rowKey={(user) => user.id}
          label="Users"
          minWidth={820}
          rowAttributes={(user) => ({ 'data-testid': `user-row-${user.username}` })}
          cardAttributes={(user) => ({ 'data-testid': `user-card-${user.username}` })}
          cardTitle={(user) => (
            <RowDetailButton onClick={() => setOpened(user)} testId="user-open">
              {user.username}
            </RowDetailButton>
          )}
          cardBadge={(user) => <StatusBadge user={user} />}
          cardFooter={actions}
        />
      )}
      {users.data && (
        <ListPager
          total={users.data.total}
          page={page}
          pageSize={PAGE_SIZE}
          noun={['user', 'users']}
          fetching={users.isFetching}
          onPage={(next) => list.set({ ...filtersOf(filters), page: next })}
        />
      )}
      <UserDetailsDialog user={opened} onClose={() => setOpened(null)} />
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
