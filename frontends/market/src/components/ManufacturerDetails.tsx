import { Group, Loader, Stack, Text } from '@mantine/core';
import { useUserSummary, userDisplayName } from '@qm/ui';
import { IconBuildingFactory2 } from '@tabler/icons-react';

/**
 * The loaded block's height (a name line, then two small lines), kept by every state: a card whose block
 * grew when its lookup answered moved the cards below it (Lighthouse counted a layout shift of 0.14).
 */
const BLOCK_HEIGHT =
  'calc(var(--mantine-font-size-sm) * var(--mantine-line-height-sm) + 2 * var(--mantine-font-size-xs) * var(--mantine-line-height-xs) + 4px)';

/**
 * A card's manufacturer block: name, years of experience and license number from GET /api/users/{id}
 * (cached 60 s; a failed lookup shows "details unavailable"), with a loading state meanwhile.
 */
export function ManufacturerDetails({ manufacturerId }: { manufacturerId: number }) {
  const { data: manufacturer, isPending } = useUserSummary(manufacturerId);

  if (isPending) {
    return (
      <Group
        gap="xs"
        align="flex-start"
        mih={BLOCK_HEIGHT}
        role="status"
        aria-live="polite"
        data-testid="manufacturer-loading"
      >
        <Loader size="xs" />
        <Text size="sm" c="dimmed">
          Loading manufacturer details...
        </Text>
      </Group>
    );
  }

  if (!manufacturer) {
    return (
      <Text size="sm" c="dimmed" mih={BLOCK_HEIGHT} data-testid="manufacturer-details">
        Manufacturer details unavailable
      </Text>
    );
  }

  const years = manufacturer.yearsOfExperience;
  return (
    <Stack gap={2} mih={BLOCK_HEIGHT} data-testid="manufacturer-details">
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
