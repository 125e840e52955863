import { OutageGate, type Turn } from '../../src/amqp/outage-gate';

const quiet = { paused: () => undefined, probing: () => undefined, resumed: () => undefined };

function settledWithin(
  promise: Promise<Turn | undefined>,
  ms: number,
): Promise<Turn | undefined | 'pending'> {
  return Promise.race([
    promise,
    new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms)),
  ]);
}

describe('OutageGate', () => {
  it('given an open gate, when a delivery asks, then it runs at once and is not the probe', async () => {
    const gate = new OutageGate({ initialMs: 10, maxMs: 20 }, quiet);
    await expect(gate.turn()).resolves.toEqual({ probe: false });
  });

  it('given a pause, when the backoff passes, then one waiting delivery runs as the probe', async () => {
    const gate = new OutageGate({ initialMs: 10, maxMs: 20 }, quiet);
    gate.failedTransiently({ probe: false });
    const first = gate.turn();
    const second = gate.turn();
    await expect(first).resolves.toEqual({ probe: true });
    await expect(settledWithin(second, 50)).resolves.toBe('pending');
    gate.succeeded();
    await expect(second).resolves.toEqual({ probe: false });
  });

  // The race CI met once: a handler started before the pause fails after the consumer stops. It asks for another
  // turn, and a closed gate must let it go at once; before, it waited for a probe no timer would ever release.
  it('given a closed gate, when a handler in flight fails transiently and asks again, then it is let go at once', async () => {
    const gate = new OutageGate({ initialMs: 10_000, maxMs: 10_000 }, quiet);
    gate.failedTransiently({ probe: false });
    const waiting = gate.turn();
    gate.close();
    await expect(waiting).resolves.toBeUndefined();
    gate.failedTransiently({ probe: false });
    await expect(settledWithin(gate.turn(), 50)).resolves.toBeUndefined();
    gate.failedTransiently({ probe: true });
    await expect(settledWithin(gate.turn(), 50)).resolves.toBeUndefined();
  });
});
