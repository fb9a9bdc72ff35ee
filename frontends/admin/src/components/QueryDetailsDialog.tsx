import { Button, Divider, Group, Modal, Paper, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  type QueryView,
  queryMoveAllowed,
  type ReplyStatusName,
  SUPPORT_LIMITS,
  SUPPORT_MESSAGES as MSG,
} from '@qm/contracts/rest';
import { apiFetch, errorMessage } from '@qm/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { ADMIN_QUERIES_KEY } from '../queries';
import { QueryDate } from './QueryList';
import { QueryStatusBadge } from './QueryStatusBadge';

/**
 * The View dialog of /admin/queries (docs/product.md §2): the query and, unless resolved, the response box
 * with the two reply buttons. Which buttons show follows the one rule of docs/product.md §4 (QUERY_MOVES in
 * @qm/contracts), which the service enforces too.
 */
export function QueryDetailsDialog({ query, onClose }: { query: QueryView | null; onClose: () => void }) {
  return (
    <Modal
      opened={!!query}
      onClose={onClose}
      size="lg"
      title={
        <Stack gap={0}>
          <Text fw={700} fz="lg">
            Query Details
          </Text>
          <Text size="sm" c="dimmed">
            View and respond to user query
          </Text>
        </Stack>
      }
    >
      {/* Keyed: the response box starts empty for each query. */}
      {query && <QueryDetails key={query.id} query={query} onClose={onClose} />}
    </Modal>
  );
}

function QueryDetails({ query, onClose }: { query: QueryView; onClose: () => void }) {
  const [response, setResponse] = useState('');
  const queryClient = useQueryClient();
  const reply = useMutation({
    mutationFn: (status: ReplyStatusName) =>
      apiFetch(`/api/admin/queries/${query.id}/status`, {
        method: 'PATCH',
        body: { status, response },
      }),
    onSuccess: () => {
      notifications.show({ color: 'green', title: MSG.updateSuccessTitle, message: MSG.updateSuccess });
      onClose();
    },
    onError: (error) => {
      notifications.show({
        color: 'red',
        title: MSG.updateFailedTitle,
        message: errorMessage(error, MSG.updateFailed),
      });
    },
    // Also after a refusal (e.g. resolved meanwhile): the list shows the query as it now is.
    onSettled: () => queryClient.invalidateQueries({ queryKey: ADMIN_QUERIES_KEY }),
  });
  const blocked = !response.trim() || reply.isPending;
  const label = (text: string) => (reply.isPending ? 'Sending...' : text);

  return (
    <Stack gap="md">
      <Field label="From">
        <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
          {query.fullName}
        </Text>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {query.email}
        </Text>
      </Field>
      <Group gap="xl">
        <Field label="Status">
          <QueryStatusBadge status={query.status} />
        </Field>
        <Field label="Date">
          <QueryDate iso={query.createdAt} />
        </Field>
      </Group>
      <Field label="Subject">
        <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
          {query.subject}
        </Text>
      </Field>
      <Field label="Message">
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {query.message}
        </Text>
      </Field>
      {query.replies.length > 0 && (
        <Field label={`Replies (${query.replies.length})`}>
          <Stack
            gap="xs"
            component="ol"
            p={0}
            m={0}
            style={{ listStyle: 'none' }}
            data-testid="query-replies"
          >
            {query.replies.map((r) => (
              <Paper key={r.at} component="li" withBorder radius="sm" p="sm">
                <Group justify="space-between" gap="xs" mb={4}>
                  <QueryDate iso={r.at} />
                  <QueryStatusBadge status={r.status} />
                </Group>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {r.response}
                </Text>
              </Paper>
            ))}
          </Stack>
        </Field>
      )}
      {query.status !== 'resolved' && (
        <>
          <Divider />
          <Textarea
            label="Your Response"
            placeholder="Type your response here..."
            rows={5}
            maxLength={SUPPORT_LIMITS.responseMax}
            value={response}
            onChange={(e) => setResponse(e.currentTarget.value)}
            disabled={reply.isPending}
          />
        </>
      )}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        {queryMoveAllowed(query.status, 'in-progress') && (
          <Button variant="light" disabled={blocked} onClick={() => reply.mutate('in-progress')}>
            {label('Reply & Mark In Progress')}
          </Button>
        )}
        {queryMoveAllowed(query.status, 'resolved') && (
          <Button color="green" disabled={blocked} onClick={() => reply.mutate('resolved')}>
            {label('Respond & Resolve')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      {children}
    </Stack>
  );
}
