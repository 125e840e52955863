import { AppError } from '@bm/platform';
import { requireQueue } from '../../src/domain/dead-letters/consumer-queue';
import { hashInviteToken, INVITE_TTL_MS } from '../../src/domain/dashboard-users/invite-token';
import { requireCsrf, type SessionRequest } from '../../src/domain/sessions/authenticate-session.use-case';
import type { LiveSession } from '../../src/domain/ports/sessions.port';
import { requireKnownPlan, tenantDto } from '../../src/domain/tenants/tenant-rules';

/* The gateway's small rules: plans a tenant may be on, the tenant's answer, CSRF, invite tokens, queue names. */

const plans = new Map([
  ['default', { name: 'default', limit: 10, windowSeconds: 1 }],
  ['pro', { name: 'pro', limit: 100, windowSeconds: 1 }],
]);

function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    return err as AppError;
  }
  throw new Error('expected an error');
}

describe('tenant rules', () => {
  it('when the plan is configured, then it is accepted', () => {
    expect(() => requireKnownPlan(plans, 'pro')).not.toThrow();
  });

  it('when the plan is not configured, then it is a validation error on plan naming the known ones', () => {
    const err = errorOf(() => requireKnownPlan(plans, 'gold'));

    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.details).toEqual({ errors: [{ field: 'plan', message: 'plan must be one of default, pro' }] });
  });

  it('when a tenant is answered, then it is in the contract shape with an ISO creation time', () => {
    const createdAt = new Date('2025-01-02T03:04:05.000Z');

    expect(tenantDto({ id: 7, name: 'Acme', plan: 'pro', createdAt })).toEqual({
      tenant_id: 7,
      name: 'Acme',
      plan: 'pro',
      created_at: '2025-01-02T03:04:05.000Z',
    });
  });
});

describe('csrf', () => {
  const session = { csrfToken: 'token-1' } as LiveSession;
  const request = (overrides: Partial<SessionRequest>): SessionRequest => ({
    sessionId: 's',
    changesState: true,
    csrfHeader: 'token-1',
    sameOrigin: true,
    ...overrides,
  });

  it('when a request changes nothing, then it needs no token', () => {
    expect(() =>
      requireCsrf(request({ changesState: false, csrfHeader: undefined, sameOrigin: false }), session),
    ).not.toThrow();
  });

  it('when a state-changing request is same-origin with the session token, then it passes', () => {
    expect(() => requireCsrf(request({}), session)).not.toThrow();
  });

  it.each([
    ['without the token', { csrfHeader: undefined }],
    ['with another token', { csrfHeader: 'token-2' }],
    ['with a token of another length', { csrfHeader: 'token-10' }],
    ['from another origin', { sameOrigin: false }],
  ])('when a state-changing request comes %s, then it is 403 CSRF_FAILED', (_what, overrides) => {
    expect(errorOf(() => requireCsrf(request(overrides), session)).code).toBe('CSRF_FAILED');
  });
});

describe('invite tokens and dead-letter queues', () => {
  it('when an invite token is hashed, then it is its SHA-256, the same every time', () => {
    expect(hashInviteToken('abc').toString('hex')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(INVITE_TTL_MS).toBe(24 * 3600 * 1000);
  });

  it('when the operator names a consumer queue, then it is accepted; another name is 404 QUEUE_NOT_FOUND', () => {
    expect(requireQueue('messaging.inbound')).toBe('messaging.inbound');
    expect(errorOf(() => requireQueue('toString')).code).toBe('QUEUE_NOT_FOUND');
    expect(errorOf(() => requireQueue('bm.messaging.inbound')).code).toBe('QUEUE_NOT_FOUND');
  });
});
