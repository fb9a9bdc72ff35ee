export { formatINR, formatRupees } from '@qm/contracts/rest';
