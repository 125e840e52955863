import { Pool, type Dispatcher } from 'undici';
import {
  ERROR_CODES,
  INTERNAL_HEADERS,
  internalPath,
  REQUEST_ID_HEADER,
  type ErrorCode,
  type InternalEndpoint,
  type PathParams,
} from '@bm/contracts';
import { currentContext } from '../context';
import { AppError } from '../errors';
import { traceHeaders } from '../tracing';

export interface InternalClientOptions {
  /** The callee's name, for messages and logs: `messaging`. */
  service: string;
  /** Its base URL, e.g. `http://messaging:3001`. */
  baseUrl: string;
  /** The internal credential every internal route requires (INTERNAL_TOKEN). */
  token: string;
  /** How long one call may take, connecting included. */
  timeoutMs: number;
  /** Kept-alive connections to the callee. */
  connections?: number;
}

/** One call: the endpoint's path parameters, its input (query of a GET, body otherwise), the tenant it is for. */
export type InternalCall<Params extends PathParams, Input> = {
  params: Params;
  tenantId?: number;
} & (undefined extends Input ? { input?: Input } : { input: Input });

/**
 * Another service's answer the caller cannot pass on as its own: a refusal of the request itself (the caller's
 * bug: a validation error, an unknown route) or a failure of its own (a 500). Permanent, and shown to a client
 * only as 500 INTERNAL_ERROR.
 */
export class InternalCallError extends Error {
  constructor(
    message: string,
    /** The callee's HTTP status. */
    readonly httpStatus: number,
    /** The code of the callee's error envelope, when it sent one. */
    readonly calleeCode: string | undefined,
  ) {
    super(message);
    this.name = 'InternalCallError';
  }
}

interface AnswerBody {
  success?: unknown;
  data?: unknown;
  error?: { code?: unknown; message?: unknown; details?: unknown };
}

const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && code in ERROR_CODES;

/** The query string of a GET's input: its defined fields. */
function queryOf(input: unknown): string {
  if (input === undefined || input === null) return '';
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(input)) {
    if (value !== undefined) query.set(name, String(value));
  }
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}

/** The answer's body as an envelope, or `{}` when it is not JSON; a body cut short (timeout, reset) throws. */
async function readBody(answer: Dispatcher.ResponseData): Promise<AnswerBody> {
  const text = await answer.body.text();
  try {
    const body = JSON.parse(text) as AnswerBody | null;
    return body !== null && typeof body === 'object' ? body : {};
  } catch {
    return {};
  }
}

/**
 * The one HTTP client for calls between services, built on an internal endpoint's contract: it sends the
 * internal credential, the tenant, the request id and the trace, keeps connections alive, and bounds each call
 * with a timeout. It answers the envelope's `data`, or throws:
 * - `AppError` with the callee's code when the callee refused in its envelope with a 4xx and a documented code
 *   (other than VALIDATION_ERROR, which says the caller built the call wrong): the caller may pass it on as its
 *   own, with the code's documented status whatever status the callee used;
 * - `AppError('SERVICE_UNAVAILABLE')` when the callee could not be reached, timed out or answered 502-504, which
 *   `isTransientFailure` recognises: a consumer waits it out;
 * - `InternalCallError` for any other answer: permanent.
 */
export class InternalClient {
  private readonly pool: Pool;
  private readonly prefix: string;

  constructor(private readonly options: InternalClientOptions) {
    const url = new URL(options.baseUrl);
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.pool = new Pool(url.origin, {
      connections: options.connections ?? 64,
      keepAliveTimeout: 30_000,
    });
  }

  /** Calls the endpoint and answers its `data` (see the class for the errors). */
  async call<Params extends PathParams, Input, Output>(
    endpoint: InternalEndpoint<Params, Input, Output>,
    call: InternalCall<Params, Input>,
  ): Promise<Output> {
    const { service, token, timeoutMs } = this.options;
    const input = (call as { input?: Input }).input;
    const withBody = endpoint.method !== 'GET' && input !== undefined;
    const path = `${this.prefix}${internalPath(endpoint, call.params)}`;
    const requestId = currentContext().requestId;
    const headers: Record<string, string> = {
      [INTERNAL_HEADERS.token]: token,
      ...(call.tenantId === undefined ? {} : { [INTERNAL_HEADERS.tenantId]: String(call.tenantId) }),
      ...(requestId === undefined ? {} : { [REQUEST_ID_HEADER]: requestId }),
      ...(withBody ? { 'content-type': 'application/json' } : {}),
      ...traceHeaders(),
    };
    const what = `${endpoint.method} ${endpoint.path}`;
    let answer: Dispatcher.ResponseData;
    let body: AnswerBody;
    try {
      answer = await this.pool.request({
        method: endpoint.method,
        path: endpoint.method === 'GET' ? `${path}${queryOf(input)}` : path,
        headers,
        body: withBody ? JSON.stringify(input) : undefined,
        signal: AbortSignal.timeout(timeoutMs),
      });
      body = await readBody(answer);
    } catch (err) {
      throw new AppError('SERVICE_UNAVAILABLE', `The ${service} service did not answer ${what}`, undefined, {
        cause: err,
      });
    }
    const status = answer.statusCode;
    if (status >= 200 && status < 300 && body.success === true) return body.data as Output;
    if (status >= 502 && status <= 504) {
      throw new AppError('SERVICE_UNAVAILABLE', `The ${service} service answered ${status} to ${what}`);
    }
    const code = body.error?.code;
    if (isErrorCode(code) && code !== 'VALIDATION_ERROR' && status >= 400 && status < 500) {
      const message = typeof body.error?.message === 'string' ? body.error.message : undefined;
      const details = body.error?.details;
      throw new AppError(
        code,
        message,
        details !== null && typeof details === 'object' ? (details as Record<string, unknown>) : undefined,
      );
    }
    throw new InternalCallError(
      `The ${service} service answered ${status}${typeof code === 'string' ? ` ${code}` : ''} to ${what}`,
      status,
      typeof code === 'string' ? code : undefined,
    );
  }

  /** Closes the kept-alive connections. */
  async close(): Promise<void> {
    await this.pool.close();
  }
}

/** The settings of a service that calls messaging's internal endpoints. */
export interface MessagingCallerConfig {
  MESSAGING_URL: string;
  MESSAGING_TIMEOUT_MS: number;
  INTERNAL_TOKEN: string;
}

/** The internal client of the messaging service, from the caller's configuration. */
export function messagingClientFor(config: MessagingCallerConfig): InternalClient {
  return new InternalClient({
    service: 'messaging',
    baseUrl: config.MESSAGING_URL,
    token: config.INTERNAL_TOKEN,
    timeoutMs: config.MESSAGING_TIMEOUT_MS,
  });
}

/** The settings of a service that calls the campaign service's internal endpoints. */
export interface CampaignCallerConfig {
  CAMPAIGN_URL: string;
  INTERNAL_TOKEN: string;
}

/** The internal client of the campaign service, from the caller's configuration; bounded like messaging's calls. */
export function campaignClientFor(
  config: CampaignCallerConfig & { MESSAGING_TIMEOUT_MS: number },
): InternalClient {
  return new InternalClient({
    service: 'campaign',
    baseUrl: config.CAMPAIGN_URL,
    token: config.INTERNAL_TOKEN,
    timeoutMs: config.MESSAGING_TIMEOUT_MS,
  });
}
