import { Group, Loader, Stack, Text } from '@mantine/core';
import { useUserSummary, userDisplayName } from '@qm/ui';
import { IconBuildingFactory2 } from '@tabler/icons-react';

/**
 * A card's manufacturer block: name, years of experience and license number from GET /api/users/{id}
 * (cached 60 s; a failed lookup shows "details unavailable"), with a loading state meanwhile.
 */
export function ManufacturerDetails({ manufacturerId }: { manufacturerId: number }) {
  const { data: manufacturer, isPending } = useUserSummary(manufacturerId);

  if (isPending) {
    return (
      <Group gap="xs" role="status" aria-live="polite" data-testid="manufacturer-loading">
        <Loader size="xs" />
        <Text size="sm" c="dimmed">
          Loading manufacturer details...
        </Text>
      </Group>
    );
  }

  if (!manufacturer) {
    return (
      <Text size="sm" c="dimmed" data-testid="manufacturer-details">
        Manufacturer details unavailable
      </Text>
    );
  }

  const years = manufacturer.yearsOfExperience;
  return (
    <Stack gap={2} data-testid="manufacturer-details">
      <Group gap={6} wrap="nowrap">
        <IconBuildingFactory2 size={16} aria-hidden />
        <Text size="sm" fw={600} truncate>
          {userDisplayName(manufacturer)}
        </Text>
      </Group>
      <Text size="xs" c="dimmed">
        {years === null || years === undefined
          ? 'Experience not provided'
          : `${years} ${years === 1 ? 'year' : 'years'} of experience`}
      </Text>
      <Text size="xs" c="dimmed">
        License: {manufacturer.licenseNumber?.trim() || 'Not provided'}
      </Text>
    </Stack>
  );
}
