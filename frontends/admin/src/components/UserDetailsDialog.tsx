import { Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import type { User } from '@qm/contracts/rest';
import { exactDate } from '@qm/ui';
import type { ReactNode } from 'react';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2} miw={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

/** The optional profile fields, shown only when set. */
const OPTIONAL: { key: keyof User; label: string }[] = [
  { key: 'phoneNumber', label: 'Phone' },
  { key: 'address', label: 'Address' },
  { key: 'licenseNumber', label: 'License number' },
  { key: 'yearsOfExperience', label: 'Years of experience' },
  { key: 'rank', label: 'Rank' },
  { key: 'barretNumber', label: 'Barret number' },
  { key: 'division', label: 'Division' },
  { key: 'specialization', label: 'Specialization' },
  { key: 'serviceYears', label: 'Service years' },
  { key: 'bio', label: 'Bio' },
  { key: 'rejectionReason', label: 'Rejection reason' },
];

/** A user of /admin/users, whole (issue 30: a row opens its detail). */
export function UserDetailsDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  return (
    <Modal
      opened={user !== null}
      onClose={onClose}
      title={user ? `User ${user.username}` : 'User'}
      centered
      radius="md"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {user && (
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" data-testid="user-details">
          <Field label="Full name">{[user.firstName, user.lastName].filter(Boolean).join(' ') || '—'}</Field>
          <Field label="Email">{user.email}</Field>
          <Field label="Role">{user.role}</Field>
          <Field label="Status">{user.status}</Field>
          <Field label="Registered">{exactDate(user.createdAt)}</Field>
          <Field label="Last updated">{exactDate(user.updatedAt)}</Field>
          {OPTIONAL.map(({ key, label }) => {
            const value = user[key];
            if (value === null || value === undefined || value === '') return null;
            return (
              <Field key={key} label={label}>
                {String(value)}
              </Field>
            );
          })}
        </SimpleGrid>
      )}
    </Modal>
  );
}
