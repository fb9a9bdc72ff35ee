import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime';

dayjs.extend(relativeTime);

/** "3 minutes ago" (docs/product.md §2: history dates are relative). */
export const fromNow = (iso: string) => dayjs(iso).fromNow();

// Exact dates and times are India Standard Time everywhere, labelled (@qm/contracts display.ts).
export { exactDate, longDateTime, timeOfDay } from '@qm/contracts/rest';
