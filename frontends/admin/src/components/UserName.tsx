import { Box, Loader, Text } from '@mantine/core';
import { useUserSummary } from '@qm/ui';

/** What the admin lists show for an account that no longer exists (never "User #50"). */
export const DELETED_USER = 'Deleted user';

/**
 * Usernames are one word: they never break inside it. In a table the column widens (or the table
 * scrolls); in a phone's narrow card a block that cannot hold it ends it with an ellipsis instead of
 * drawing it over its neighbours (the full name is its `title`).
 */
export const NO_WRAP = { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' } as const;

/** "First Last" of a user summary, or empty. */
const fullName = (user: { firstName?: string; lastName?: string }) =>
  [user.firstName, user.lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');

/**
 * A user of an admin list by id: the username (and the name under it with `withName`), or "Deleted
 * user" when the account is gone (GET /api/users/{id} answers 404 to an administrator only then).
 */
export function UserName({ id, withName = false }: { id: number; withName?: boolean }) {
  const { data, isPending } = useUserSummary(id);
  if (isPending) return <Loader size="xs" role="status" aria-label="Loading user" />;
  if (!data?.username) return <DeletedUser />;
  const name = withName ? fullName(data) : '';
  return (
    <Box>
      <Text
        size="sm"
        fw={withName ? 500 : undefined}
        style={NO_WRAP}
        title={data.username}
        data-testid="user-name"
      >
        {data.username}
      </Text>
      {name && (
        <Text size="xs" c="dimmed">
          {name}
        </Text>
      )}
    </Box>
  );
}

export function DeletedUser() {
  return (
    <Text size="sm" c="dimmed" fs="italic" style={NO_WRAP} data-testid="deleted-user">
      {DELETED_USER}
    </Text>
  );
}
