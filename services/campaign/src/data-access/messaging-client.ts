import { ERROR_CODES, INTERNAL_HEADERS, type ErrorCode } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { CampaignTemplate, Capacity, MessagingPort } from '../domain/ports/messaging.port';
import type { OptOutChange } from '../domain/ports/opt-outs.port';

interface Envelope<T> {
  success?: boolean;
  data?: T;
  error?: { code?: string; message?: string; details?: Record<string, unknown> };
}

const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && code in ERROR_CODES;

/**
 * Messaging's internal endpoints a campaign needs: the template it would send, the number's tier capacity,
 * holds on that capacity, and messaging's copy of the opt-outs. Messaging's own refusals (NO_ACTIVE_ACCOUNT,
 * TEMPLATE_NOT_FOUND, …) come back as the same AppError; messaging unreachable or failing is 503
 * SERVICE_UNAVAILABLE, so nothing is half-done.
 */
export class MessagingClient implements MessagingPort {
  constructor(
    private readonly baseUrl: string,
    private readonly internalToken: string,
    private readonly timeoutMs: number,
  ) {}

  campaignTemplate(tenantId: number, accountId: string, name: string, language?: string) {
    const query = new URLSearchParams({ name, ...(language ? { language } : {}) });
    return this.call<CampaignTemplate>(
      tenantId,
      'GET',
      `/internal/v1/channel-accounts/${encodeURIComponent(accountId)}/campaign-template?${query.toString()}`,
    );
  }

  capacity(tenantId: number, accountId: string): Promise<Capacity> {
    return this.call<Capacity>(
      tenantId,
      'GET',
      `/internal/v1/channel-accounts/${encodeURIComponent(accountId)}/capacity`,
    );
  }

  /** Holds up to `count` slots for `reference` (replacing its earlier hold); all or nothing unless `partial`. */
  reserve(
    tenantId: number,
    accountId: string,
    reference: string,
    count: number,
    partial: boolean,
  ): Promise<{ granted: number; capacity: Capacity }> {
    return this.call(
      tenantId,
      'POST',
      `/internal/v1/channel-accounts/${encodeURIComponent(accountId)}/capacity/reservations`,
      { reference, count, partial },
    );
  }

  async release(tenantId: number, accountId: string, reference: string): Promise<void> {
    await this.call(
      tenantId,
      'DELETE',
      `/internal/v1/channel-accounts/${encodeURIComponent(accountId)}/capacity/reservations/${encodeURIComponent(reference)}`,
    );
  }

  /** Sets messaging's copy of one opt-out, which its single MARKETING sends are checked against. */
  async setOptOut(change: OptOutChange): Promise<void> {
    await this.call(change.tenantId, 'PUT', `/internal/v1/opt-outs/${encodeURIComponent(change.phone)}`, {
      opted_out: change.optedOut,
      version: change.version,
    });
  }

  private async call<T>(tenantId: number, method: string, path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          [INTERNAL_HEADERS.token]: this.internalToken,
          [INTERNAL_HEADERS.tenantId]: String(tenantId),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch {
      throw new AppError('SERVICE_UNAVAILABLE', 'The messaging service is unreachable');
    }
    const answer = (await res.json().catch(() => ({}))) as Envelope<T>;
    if (res.ok && answer.success === true) return answer.data as T;
    const code = answer.error?.code;
    if (res.status < 500 && isErrorCode(code) && code !== 'VALIDATION_ERROR') {
      throw new AppError(code, answer.error?.message, answer.error?.details);
    }
    throw new AppError('SERVICE_UNAVAILABLE', `The messaging service answered ${res.status}`);
  }
}
