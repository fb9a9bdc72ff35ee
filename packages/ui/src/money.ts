export { formatINR } from '@qm/contracts/rest';
