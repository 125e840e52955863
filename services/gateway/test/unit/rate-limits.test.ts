import type { Logger } from '@bm/platform';
import type { WindowCounter } from '../../src/domain/ports/window-counter.port';
import { parsePlans, type Plan } from '../../src/domain/rate-limits/plans';
import { RateLimiter, UNLIMITED_BUDGET } from '../../src/domain/rate-limits/rate-limiter';

/* The rate-limit plans and the limiter's arithmetic, with an in-memory counter in place of Redis. */

const quietLogger = { warn: () => undefined } as unknown as Logger;

/** A counter that answers as the shared one would: the hits so far and the window's ms left. */
function counter(answer: { count: number; msLeft: number } | Error, ready = true) {
  const hits: Array<{ key: string; windowMs: number }> = [];
  const port: WindowCounter = {
    ready: () => ready,
    hit: (key, windowMs) => {
      hits.push({ key, windowMs });
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
  };
  return { port, hits };
}

const tenPerMinute: Plan = { name: 'default', limit: 10, windowSeconds: 60 };
const unlimited: Plan = { name: 'unlimited', limit: null, windowSeconds: 1 };

describe('plans', () => {
  it('when the plans are valid, then each is read with its limit and window, null limits unlimited', () => {
    const plans = parsePlans(
      JSON.stringify({
        default: { limit: 200, window_seconds: 1 },
        open: { limit: null, window_seconds: 5 },
      }),
      'default',
    );

    expect([...plans.values()]).toEqual([
      { name: 'default', limit: 200, windowSeconds: 1 },
      { name: 'open', limit: null, windowSeconds: 5 },
    ]);
  });

  it('when the default plan is not among them, then the configuration is refused', () => {
    expect(() => parsePlans(JSON.stringify({ pro: { limit: 5, window_seconds: 1 } }), 'default')).toThrow(
      'DEFAULT_PLAN default is not in RATE_LIMIT_PLANS',
    );
  });

  it.each([
    ['a zero limit', { default: { limit: 0, window_seconds: 1 } }],
    ['a window over an hour', { default: { limit: 1, window_seconds: 3601 } }],
    ['a missing window', { default: { limit: 1 } }],
    ['an upper-case plan name', { Default: { limit: 1, window_seconds: 1 } }],
  ])('when a plan has %s, then the configuration is refused', (_what, plans) => {
    expect(() => parsePlans(JSON.stringify(plans), 'default')).toThrow('RATE_LIMIT_PLANS is invalid');
  });
});

describe('rate limiter', () => {
  it('when a tenant is under its limit, then the hit is allowed with what is left and the seconds to reset', async () => {
    const { port, hits } = counter({ count: 3, msLeft: 12_500 });

    const decision = await new RateLimiter(port, quietLogger).hit(42, tenPerMinute);

    expect(decision).toEqual({ allowed: true, limit: 10, remaining: 7, resetSeconds: 13 });
    expect(hits).toEqual([{ key: 'gw:rl:42', windowMs: 60_000 }]);
  });

  it('when the hit is the last one of the budget, then it is allowed and nothing remains', async () => {
    const decision = await new RateLimiter(counter({ count: 10, msLeft: 1_000 }).port, quietLogger).hit(
      1,
      tenPerMinute,
    );

    expect(decision).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 1 });
  });

  it('when a tenant is over its limit, then the hit is refused and remaining stays at zero', async () => {
    const decision = await new RateLimiter(counter({ count: 15, msLeft: 400 }).port, quietLogger).hit(
      1,
      tenPerMinute,
    );

    expect(decision).toEqual({ allowed: false, limit: 10, remaining: 0, resetSeconds: 1 });
  });

  it('when the window has no time left on it, then the reset is the whole window', async () => {
    const decision = await new RateLimiter(counter({ count: 1, msLeft: -1 }).port, quietLogger).hit(
      1,
      tenPerMinute,
    );

    expect(decision.resetSeconds).toBe(60);
  });

  it('when the plan is unlimited, then nothing is counted and the budget is one no client spends', async () => {
    const { port, hits } = counter({ count: 1, msLeft: 1 });

    const decision = await new RateLimiter(port, quietLogger).hit(1, unlimited);

    expect(decision).toEqual({
      allowed: true,
      limit: UNLIMITED_BUDGET,
      remaining: UNLIMITED_BUDGET,
      resetSeconds: 1,
    });
    expect(hits).toEqual([]);
  });

  it('when the counter is not connected, then the request passes with the whole budget, uncounted', async () => {
    const { port, hits } = counter({ count: 99, msLeft: 1 }, false);

    const decision = await new RateLimiter(port, quietLogger).hit(1, tenPerMinute);

    expect(decision).toEqual({ allowed: true, limit: 10, remaining: 10, resetSeconds: 60 });
    expect(hits).toEqual([]);
  });

  it('when the counter fails, then the request passes with the whole budget', async () => {
    const decision = await new RateLimiter(counter(new Error('down')).port, quietLogger).hit(1, tenPerMinute);

    expect(decision).toEqual({ allowed: true, limit: 10, remaining: 10, resetSeconds: 60 });
  });

  it('when the caller is not identified, then the plan budget is stated without counting', () => {
    const { port, hits } = counter({ count: 1, msLeft: 1 });
    const limiter = new RateLimiter(port, quietLogger);

    expect(limiter.uncounted(tenPerMinute)).toEqual({
      allowed: true,
      limit: 10,
      remaining: 10,
      resetSeconds: 60,
    });
    expect(limiter.uncounted(unlimited).limit).toBe(UNLIMITED_BUDGET);
    expect(hits).toEqual([]);
  });
});
