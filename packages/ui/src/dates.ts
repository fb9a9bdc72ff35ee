import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime';

dayjs.extend(relativeTime);

/** "3 minutes ago" (spec §2: history dates are relative). */
export const fromNow = (iso: string) => dayjs(iso).fromNow();

/** The exact moment, for a tooltip: "23 Nov 2026, 14:05". */
export const exactDate = (iso: string) =>
  new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

export { longDateTime } from '@qm/contracts/rest';
