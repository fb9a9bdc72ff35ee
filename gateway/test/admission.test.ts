import { BUSY_MESSAGE, createAdmission } from '../src/admission';
import { HttpError } from '../src/http/errors';

/** A call that runs until the test finishes it. */
function held() {
  let finish!: (v: string) => void;
  let fail!: (e: Error) => void;
  const done = new Promise<string>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return { call: jest.fn(() => done), finish, fail };
}

const limits = { maxInFlight: 2, maxWaiting: 1, maxWaitMs: 50, retryAfterSeconds: 1 };
const tick = () => new Promise((r) => setImmediate(r));

describe('admission control (docs/adr/026)', () => {
  it('runs at most maxInFlight calls; the next starts, first in line first, when one ends', async () => {
    const gate = createAdmission({ ...limits, maxWaiting: 2, maxWaitMs: 10_000 });
    const calls = [held(), held(), held(), held()];
    const results = calls.map((c) => gate.run(c.call));
    await tick();
    expect(calls.map((c) => c.call.mock.calls.length)).toEqual([1, 1, 0, 0]);
    expect([gate.inFlight, gate.waiting]).toEqual([2, 2]);
    calls[1]!.finish('b');
    await expect(results[1]).resolves.toBe('b');
    await tick();
    expect(calls.map((c) => c.call.mock.calls.length)).toEqual([1, 1, 1, 0]);
    // A failed call frees its slot as well.
    calls[0]!.fail(new Error('down'));
    await expect(results[0]).rejects.toThrow('down');
    await tick();
    expect(calls[3]!.call).toHaveBeenCalledTimes(1);
    expect([gate.inFlight, gate.waiting]).toEqual([2, 0]);
    calls[2]!.finish('c');
    calls[3]!.finish('d');
    await expect(Promise.all(results.slice(2))).resolves.toEqual(['c', 'd']);
    expect(gate.inFlight).toBe(0);
  });

  it('refuses at once, with 503 and Retry-After, a call when the line is full; it is never sent', async () => {
    const gate = createAdmission(limits);
    const running = [held(), held()];
    running.forEach((c) => void gate.run(c.call));
    const waiting = held();
    const queued = gate.run(waiting.call);
    const refused = held();
    const err = await gate.run(refused.call).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ status: 503, message: BUSY_MESSAGE, retryAfterSeconds: 1 });
    expect(refused.call).not.toHaveBeenCalled();
    running.forEach((c) => c.finish('x'));
    waiting.finish('w');
    await expect(queued).resolves.toBe('w');
  });

  it('refuses a call that waited maxWaitMs without a slot, and leaves the line', async () => {
    const gate = createAdmission(limits);
    const running = [held(), held()];
    running.forEach((c) => void gate.run(c.call));
    const late = held();
    const started = Date.now();
    await expect(gate.run(late.call)).rejects.toMatchObject({ status: 503 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(late.call).not.toHaveBeenCalled();
    expect(gate.waiting).toBe(0);
    // The slots freed later go to nobody in line: the count goes back to zero.
    running.forEach((c) => c.finish('x'));
    await tick();
    expect(gate.inFlight).toBe(0);
  });

  it('tells its observer how long each sent call waited, and why each refused one was refused', async () => {
    const observer = { admitted: jest.fn(), refused: jest.fn() };
    const gate = createAdmission({ ...limits, maxWaitMs: 200 }, observer);
    const running = [held(), held()];
    running.forEach((c) => void gate.run(c.call));
    const queued = held();
    const waiting = gate.run(queued.call);
    await expect(gate.run(held().call)).rejects.toMatchObject({ status: 503 });
    expect(observer.refused).toHaveBeenLastCalledWith('line-full');
    await new Promise((r) => setTimeout(r, 30));
    running[0]!.finish('x');
    await tick();
    expect(queued.call).toHaveBeenCalledTimes(1);
    const waits = observer.admitted.mock.calls.map(([ms]: [number]) => ms);
    expect(waits).toHaveLength(3);
    expect(waits.slice(0, 2)).toEqual([0, 0]);
    expect(waits[2]).toBeGreaterThanOrEqual(25);
    // The next one waits its 200 ms in vain.
    await expect(gate.run(held().call)).rejects.toMatchObject({ status: 503 });
    expect(observer.refused).toHaveBeenLastCalledWith('waited-too-long');
    expect(observer.admitted).toHaveBeenCalledTimes(3);
    running[1]!.finish('y');
    queued.finish('q');
    await waiting;
  });
});
