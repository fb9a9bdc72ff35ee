import { Modal, SimpleGrid } from '@mantine/core';
import type { User } from '@qm/contracts/rest';
import { exactDate } from '@qm/ui';
import { DetailField } from './DetailField';

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

/** A user of /admin/users, whole (its row opens it). */
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
          <DetailField label="Full name">
            {[user.firstName, user.lastName].filter(Boolean).join(' ') || '—'}
          </DetailField>
          <DetailField label="Email">{user.email}</DetailField>
          <DetailField label="Role">{user.role}</DetailField>
          <DetailField label="Status">{user.status}</DetailField>
          <DetailField label="Registered">{exactDate(user.createdAt)}</DetailField>
          <DetailField label="Last updated">{exactDate(user.updatedAt)}</DetailField>
          {OPTIONAL.map(({ key, label }) => {
            const value = user[key];
            if (value === null || value === undefined || value === '') return null;
            return (
              <DetailField key={key} label={label}>
                {String(value)}
              </DetailField>
            );
          })}
        </SimpleGrid>
      )}
    </Modal>
  );
}
