import {
  Alert,
  Avatar,
  Badge,
  Button,
  Card,
  Group,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Tabs,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  ACTIVITY_ACTIONS,
  ACTIVITY_CATEGORIES,
  ACTIVITY_CATEGORY_LABELS,
  ACTIVITY_MESSAGES as MSG,
  type ActivityCategoryName,
  type ActivityView,
  type AdminActivitiesPage,
  categoryOf,
  prettyAction,
  type User,
} from '@qm/contracts/rest';
import {
  apiFetch,
  errorMessage,
  RelativeTime,
  PageHeader,
  ResponsiveTable,
  type ResponsiveColumn,
  toQueryString,
} from '@qm/ui';
import {
  IconArrowLeft,
  IconKey,
  IconLogin,
  IconPackage,
  IconRefresh,
  IconSearch,
  IconUser,
  IconWallet,
  type Icon,
} from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { NO_WRAP } from '../components/UserName';
import { formatRupeesIn } from '../moneyText';
import { USERS_QUERY_KEY } from './UsersPage';

const PAGE_SIZE = 20;
const CATEGORY_ICONS: Record<ActivityCategoryName, Icon> = {
  login: IconLogin,
  profile: IconUser,
  wallet: IconWallet,
  orders: IconPackage,
  password: IconKey,
};
const CATEGORY_COLORS: Record<ActivityCategoryName, string> = {
  login: 'blue',
  profile: 'grape',
  wallet: 'teal',
  orders: 'orange',
  password: 'red',
};

const fullName = (u: User) => [u.firstName, u.lastName].filter(Boolean).join(' ');
const initials = (u: User) =>
  `${u.firstName?.[0] ?? ''}${u.lastName?.[0] ?? ''}`.toUpperCase() || u.username[0]!.toUpperCase();

/** docs/product.md §5: user search matches username, email, first name, last name, role. */
function matchesUser(u: User, text: string): boolean {
  const t = text.trim().toLowerCase();
  return (
    !t || [u.username, u.email, u.firstName, u.lastName, u.role].some((f) => f?.toLowerCase().includes(t))
  );
}

/** /admin/user-activities (docs/product.md §2): pick a user, then read their activity (or everyone's). */
export function UserActivitiesPage() {
  // undefined: the users view; null: every user's activity; a user: theirs.
  const [selected, setSelected] = useState<User | null | undefined>(undefined);
  return selected === undefined ? (
    <UsersView onSelect={setSelected} />
  ) : (
    <ActivitiesView user={selected} onBack={() => setSelected(undefined)} />
  );
}

function UsersView({ onSelect }: { onSelect: (u: User | null) => void }) {
  const [search, setSearch] = useState('');
  const users = useQuery({
    queryKey: USERS_QUERY_KEY,
    queryFn: ({ signal }) => apiFetch<User[]>('/api/users', { signal }),
  });
  const shown = (users.data ?? []).filter((u) => matchesUser(u, search));
  return (
    <Stack gap="md">
      <PageHeader
        title="User Management"
        subtitle="Select a user to view their activity history"
        actions={
          <Group gap="xs">
            <Button variant="light" onClick={() => onSelect(null)}>
              All User Activities
            </Button>
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} />}
              loading={users.isFetching}
              onClick={() => void users.refetch()}
            >
              Refresh
            </Button>
          </Group>
        }
      />
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder="Search users by name, email, role..."
        aria-label="Search users"
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
      />
      {users.isError && <Alert color="red">{errorMessage(users.error, 'Failed to fetch users')}</Alert>}
      {users.isPending ? (
        <Stack gap="sm" data-testid="users-loading">
          {Array.from({ length: 5 }, (_, i) => (
            <Skeleton key={i} height={72} radius="md" />
          ))}
        </Stack>
      ) : shown.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl">
          {MSG.noUsers}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {shown.map((u) => (
            <Card
              key={u.id}
              withBorder
              radius="md"
              padding="md"
              component="button"
              onClick={() => onSelect(u)}
              style={{ cursor: 'pointer', textAlign: 'left' }}
              data-testid={`activity-user-${u.username}`}
            >
              {/* Named by what it shows (no aria-label that differs from the visible text: axe). */}
              <Group wrap="nowrap" gap="sm" align="flex-start">
                <Avatar color="army" radius="xl" aria-hidden>
                  {initials(u)}
                </Avatar>
                <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
                  <Text fw={600} truncate>
                    {fullName(u) || u.username}
                  </Text>
                  <Text size="sm" c="dimmed" truncate>
                    @{u.username}
                  </Text>
                  <Text size="sm" c="dimmed" truncate>
                    {u.email}
                  </Text>
                </Stack>
                <Badge
                  variant={u.role === 'Admin' ? 'filled' : 'light'}
                  color={u.role === 'Admin' ? 'red' : 'gray'}
                >
                  {u.role}
                </Badge>
              </Group>
            </Card>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

function ActionBadge({ action }: { action: string }) {
  const category = categoryOf(action);
  const ActionIcon = category ? CATEGORY_ICONS[category] : IconUser;
  return (
    <Badge
      variant="light"
      color={category ? CATEGORY_COLORS[category] : 'gray'}
      leftSection={<ActionIcon size={12} />}
      styles={{ label: { overflow: 'visible' } }}
    >
      {prettyAction(action)}
    </Badge>
  );
}

function ActivitiesView({ user, onBack }: { user: User | null; onBack: () => void }) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [category, setCategory] = useState<ActivityCategoryName | 'all'>('all');
  const [action, setAction] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const params = {
    userId: user?.id,
    category: category === 'all' ? undefined : category,
    action: action ?? undefined,
    search: debounced || undefined,
    page,
    pageSize: PAGE_SIZE,
  };
  const activities = useQuery({
    queryKey: ['/api/admin/user-activities', params],
    queryFn: ({ signal }) =>
      apiFetch<AdminActivitiesPage>(`/api/admin/user-activities${toQueryString(params)}`, { signal }),
    placeholderData: keepPreviousData,
  });
  // The actions of the chosen tab (docs/product.md §3's list), named for people.
  const actionOptions = ACTIVITY_ACTIONS.filter((a) => category === 'all' || categoryOf(a) === category).map(
    (a) => ({ value: a, label: prettyAction(a) }),
  );
  const rows = activities.data?.activities ?? [];

  return (
    <Stack gap="md">
      <Group>
        <Button variant="subtle" leftSection={<IconArrowLeft size={16} />} onClick={onBack}>
          Back
        </Button>
      </Group>
      <PageHeader
        title={user ? `Activities for ${user.firstName} ${user.lastName}` : 'All User Activities'}
        subtitle={
          user ? `@${user.username} · ${user.email} · ${user.role}` : 'Every user’s activity, newest first'
        }
        actions={
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} />}
            loading={activities.isFetching}
            onClick={() => void activities.refetch()}
          >
            Refresh
          </Button>
        }
      />
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder="Search by action or details..."
        aria-label="Search activities"
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setPage(1);
        }}
      />
      <Tabs
        value={category}
        onChange={(v) => {
          setCategory((v ?? 'all') as ActivityCategoryName | 'all');
          setAction(null);
          setPage(1);
        }}
      >
        <Tabs.List style={{ flexWrap: 'wrap' }}>
          <Tabs.Tab value="all">All</Tabs.Tab>
          {ACTIVITY_CATEGORIES.map((c) => (
            <Tabs.Tab key={c} value={c}>
              {ACTIVITY_CATEGORY_LABELS[c]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {/* The selected tab's panel (its tab's aria-controls points here). */}
        <Tabs.Panel value={category} pt="md">
          <Stack gap="md">
            <Select
              placeholder="Select specific action"
              aria-label="Select specific action"
              data={actionOptions}
              value={action}
              onChange={(v) => {
                setAction(v);
                setPage(1);
              }}
              clearable
              maw={360}
            />
            {activities.isError && (
              <Alert color="red">{errorMessage(activities.error, MSG.fetchFailed)}</Alert>
            )}
            {activities.isPending ? (
              <Stack gap="sm" data-testid="activities-loading">
                {Array.from({ length: 5 }, (_, i) => (
                  <Skeleton key={i} height={40} />
                ))}
              </Stack>
            ) : rows.length === 0 ? (
              <Text c="dimmed" ta="center" py="xl">
                {MSG.noActivities}
              </Text>
            ) : (
              <ActivitiesTable rows={rows} />
            )}
          </Stack>
        </Tabs.Panel>
      </Tabs>
      <Pager page={page} hasMore={activities.data?.hasMore ?? false} onPage={setPage} />
    </Stack>
  );
}

function Details({ text: raw }: { text: string }) {
  const text = formatRupeesIn(raw);
  return text ? (
    <Tooltip label={text} multiline maw={400} withArrow>
      <Text size="sm" truncate>
        {text}
      </Text>
    </Tooltip>
  ) : (
    <Text size="sm">-</Text>
  );
}

/** A table from the small breakpoint up; below it, one card per activity (no sideways scrolling). */
function ActivitiesTable({ rows }: { rows: ActivityView[] }) {
  return (
    <ResponsiveTable
      rows={rows}
      columns={ACTIVITY_COLUMNS}
      rowKey={(a) => a.id}
      label="Activities"
      minWidth={640}
      listAttributes={{ 'data-testid': 'activity-cards' }}
      card={(a) => <ActivityCard activity={a} />}
    />
  );
}

const ACTIVITY_COLUMNS: ResponsiveColumn<ActivityView>[] = [
  {
    header: 'User',
    cell: (a) => (
      <>
        <Text size="sm" fw={500} style={NO_WRAP}>
          {a.username}
        </Text>
        <Text size="xs" c="dimmed">
          {a.email}
        </Text>
      </>
    ),
  },
  { header: 'Action', cell: (a) => <ActionBadge action={a.action} /> },
  { header: 'Details', cell: (a) => <Details text={a.details} />, maxWidth: 320 },
  { header: 'Time', cell: (a) => <RelativeTime iso={a.created_at} />, nowrap: true },
];

function ActivityCard({ activity: a }: { activity: ActivityView }) {
  return (
    <Card withBorder radius="md" padding="sm">
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <ActionBadge action={a.action} />
        <RelativeTime iso={a.created_at} size="xs" c="dimmed" />
      </Group>
      <Text size="sm" fw={500} mt={6} truncate>
        {a.username}
      </Text>
      <Text size="xs" c="dimmed" truncate>
        {a.email}
      </Text>
      <Details text={a.details} />
    </Card>
  );
}

function Pager({ page, hasMore, onPage }: { page: number; hasMore: boolean; onPage: (p: number) => void }) {
  if (page === 1 && !hasMore) return null;
  return (
    <Group justify="center">
      <Button variant="default" disabled={page === 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <Text size="sm">Page {page}</Text>
      <Button variant="default" disabled={!hasMore} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </Group>
  );
}
