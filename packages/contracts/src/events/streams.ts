// The product's streams come from the one roster of services (packages/roster/roster.json).
export { STREAMS, streamOf, type StreamSpec } from '@qm/roster';
