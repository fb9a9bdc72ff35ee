import { Text, type TextProps, Tooltip } from '@mantine/core';
import { exactDate, fromNow } from '../dates';

/**
 * A moment as "3 minutes ago", with the exact India Standard Time ("23 Nov 2026, 2:05 pm IST") in a
 * tooltip (on hover, focus or touch) and in the `<time>` element's dateTime.
 */
export function RelativeTime({ iso, ...textProps }: { iso: string } & Omit<TextProps, 'children'>) {
  return (
    <Tooltip label={exactDate(iso)} openDelay={300} events={{ hover: true, focus: true, touch: true }}>
      <Text component="time" dateTime={iso} size="sm" style={{ whiteSpace: 'nowrap' }} {...textProps}>
        {fromNow(iso)}
      </Text>
    </Tooltip>
  );
}
