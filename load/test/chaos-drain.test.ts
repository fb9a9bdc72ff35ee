import { type DrainState, drained } from '../chaos/drain';

// When the chaos checker stops waiting (docs/adr/015): only once nothing the kills interrupted is
// still moving, a wallet transfer its sweeper has yet to finish included (the addendum of 2026-12-06).
const settled: DrainState = {
  outbox: [],
  consumers: [],
  transfersInFlight: 0,
  ordersInSaga: 0,
  refundsUnderway: [],
};

describe('the chaos drain', () => {
  it('is done when nothing is left moving', () => {
    expect(drained(settled)).toBe(true);
  });

  it('waits for a wallet transfer in flight, as for an outbox entry, a consumer behind or an order in its saga', () => {
    expect(drained({ ...settled, transfersInFlight: 1 })).toBe(false);
    expect(drained({ ...settled, outbox: [{ db: 'qm_wallet', id: 'e1', ageS: 1 }] })).toBe(false);
    expect(
      drained({
        ...settled,
        consumers: [{ stream: 'QM_ACTIVITY', consumer: 'activity', pending: 0, unacked: 1 }],
      }),
    ).toBe(false);
    expect(drained({ ...settled, ordersInSaga: 1 })).toBe(false);
  });
});
