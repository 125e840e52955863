import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { traceHeaders } from '@bm/platform';
import axios, { type AxiosInstance, type AxiosRequestConfig, type AxiosResponse } from 'axios';
import {
  UpstreamRefusal,
  type TemplateSubmission,
  type SendResult,
  type UpstreamAccountApi,
  type MediaUpload,
  type UpstreamFailure,
  type UpstreamMedia,
  type UpstreamSender,
  type UpstreamTemplate,
} from '../../domain/ports/upstream.port';
import { lookupRefusal, openDownload, refused, type MediaAnswer, type MediaLookup } from './media-download';
import { postMultipart } from './media-upload';
import { messageBody } from './message-body';
import { endpointOf, NoAnswer, postJson, type Endpoint, type JsonAnswer } from './post-json';
import { classifyFailure } from './upstream-errors';
import type { UpstreamMetrics, UpstreamOperation } from './upstream-metrics';
import type { MessageLog } from '../../domain/ports/message-log.port';

/** The send answer's `message_status` when the upstream holds a marketing message to watch its quality. */
const HELD = 'held_for_quality_assessment';

/** The Graph API answers 200; other implementations of the wire may say 201 or 204: any 2xx is success. */
const isSuccess = (status: number): boolean => status >= 200 && status < 300;

interface GraphError {
  error?: { code?: number | string; message?: string; error_data?: { details?: string } };
}

/** The upstream's error code; some stand-ins write it as a numeric string, which is the same code. */
function errorCodeOf(data: GraphError | undefined): number | null {
  const code = data?.error?.code;
  const number = typeof code === 'string' && /^\d+$/.test(code) ? Number(code) : code;
  return typeof number === 'number' && Number.isInteger(number) ? number : null;
}

/**
 * The upstream network's Cloud API over HTTP (keep-alive, timeouts; sends on node:http, the rest with axios).
 * Answers are classified by `error.code`; nothing here throws for an upstream refusal.
 */
export class CloudApiClient implements UpstreamSender, UpstreamAccountApi, UpstreamMedia {
  private readonly http: AxiosInstance;
  /** The sends' own requests (see `postJson`), on the same keep-alive pool as axios's. */
  private readonly endpoint: Endpoint;
  private readonly agent: HttpAgent | HttpsAgent;
  private readonly agents: { http: HttpAgent; https: HttpsAgent };

  constructor(
    baseUrl: string,
    version: string,
    private readonly timeoutMs: number,
    private readonly metrics?: UpstreamMetrics,
  ) {
    const base = `${baseUrl.replace(/\/$/, '')}/${version}`;
    const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 256 });
    const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 256 });
    this.endpoint = endpointOf(base);
    this.agent = this.endpoint.https ? httpsAgent : httpAgent;
    this.agents = { http: httpAgent, https: httpsAgent };
    this.http = axios.create({
      baseURL: base,
      timeout: timeoutMs,
      httpAgent,
      httpsAgent,
      validateStatus: () => true,
      maxRedirects: 0,
    });
  }

  /** Sends a message log, its wire body built by `messageBody`. */
  async sendMessageLog(
    phoneNumberId: string,
    accessToken: string,
    message: MessageLog,
    callbackData: string,
  ): Promise<SendResult> {
    return this.sendMessage(phoneNumberId, accessToken, messageBody(message, callbackData));
  }

  /**
   * Sends one message (the worker's hot path: node:http straight, see `postJson`; the rare account calls below
   * go through axios).
   */
  async sendMessage(
    phoneNumberId: string,
    accessToken: string,
    body: Record<string, unknown>,
  ): Promise<SendResult> {
    const started = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
    let res: JsonAnswer<{ messages?: Array<{ id?: string; message_status?: string }> } & GraphError>;
    try {
      res = await postJson(
        this.endpoint,
        `/${encodeURIComponent(phoneNumberId)}/messages`,
        body,
        { authorization: `Bearer ${accessToken}`, ...traceHeaders() },
        { agent: this.agent, timeoutMs: this.timeoutMs },
      );
    } catch (err) {
      this.metrics?.call('send_message', seconds(), null, null);
      if (!(err instanceof NoAnswer)) return classifyFailure(null, null, String(err));
      // Written in full (a timeout, a reset after the request went out): the upstream may have taken it. Never
      // written (refused, unresolvable, reset before the body left): nothing was sent, a retry is safe.
      if (err.written)
        return {
          ok: false,
          unknown: true,
          message: `no answer from the upstream: ${err.code ?? err.message}`,
        };
      return classifyFailure(null, null, `upstream unreachable: ${err.code ?? err.message}`);
    }
    const data = typeof res.data === 'object' ? res.data : undefined;
    this.metrics?.call('send_message', seconds(), res.status, errorCodeOf(data));
    const id = data?.messages?.[0]?.id;
    if (isSuccess(res.status) && typeof id === 'string')
      return { ok: true, providerMessageId: id, held: data?.messages?.[0]?.message_status === HELD };
    return this.failureOf(res.status, data);
  }

  /** Every template of the WABA, following `paging.next` to the end. */
  async listTemplates(wabaId: string, accessToken: string): Promise<UpstreamTemplate[]> {
    const templates: UpstreamTemplate[] = [];
    let url: string | undefined = `/${encodeURIComponent(wabaId)}/message_templates?limit=100`;
    for (let page = 0; url !== undefined && page < 1000; page += 1) {
      const res: AxiosResponse<{ data?: UpstreamTemplate[]; paging?: { next?: string } } & GraphError> =
        await this.call('list_templates', {
          method: 'GET',
          url,
          headers: { authorization: `Bearer ${accessToken}` },
        });
      if (!isSuccess(res.status))
        throw new UpstreamRefusal(res.status, this.failureOf(res.status, res.data).message);
      // The Graph API pages `{data: [...], paging}`; a bare list is taken as one page.
      const body: unknown = res.data;
      const page = Array.isArray(body) ? body : res.data?.data;
      if (Array.isArray(page)) templates.push(...(page as UpstreamTemplate[]));
      url = Array.isArray(body) ? undefined : res.data?.paging?.next;
    }
    return templates;
  }

  /** Submits a template for review; the request body is the submission's fields. */
  async createTemplate(
    wabaId: string,
    accessToken: string,
    template: Pick<TemplateSubmission, 'name' | 'category'> & Partial<TemplateSubmission>,
  ): Promise<{ ok: true; id: string; status: string; category: string } | UpstreamFailure> {
    const res = await this.call<{ id?: string | number; status?: string; category?: string } & GraphError>(
      'create_template',
      {
        method: 'POST',
        url: `/${encodeURIComponent(wabaId)}/message_templates`,
        data: {
          name: template.name,
          language: template.language,
          category: template.category,
          components: template.components,
        },
        headers: { authorization: `Bearer ${accessToken}` },
      },
    );
    const id = res.data?.id;
    if (isSuccess(res.status) && (typeof id === 'string' || typeof id === 'number') && id !== '') {
      return {
        ok: true,
        id: String(id),
        status: res.data.status ?? 'PENDING',
        category: res.data.category ?? template.category,
      };
    }
    return this.failureOf(res.status, res.data);
  }

  /** Subscribes our app to the WABA's webhooks, so the inbound endpoint receives its events. */
  async subscribeApp(wabaId: string, accessToken: string): Promise<void> {
    const res = await this.call<GraphError>('subscribe_app', {
      method: 'POST',
      url: `/${encodeURIComponent(wabaId)}/subscribed_apps`,
      headers: { authorization: `Bearer ${accessToken}` },
    });
    if (!isSuccess(res.status))
      throw new UpstreamRefusal(res.status, this.failureOf(res.status, res.data).message);
  }

  /** The read receipt of a customer's message: `status: read` on the messages endpoint (WIRE-2026.md). */
  async markRead(
    phoneNumberId: string,
    accessToken: string,
    providerMessageId: string,
  ): Promise<{ ok: true } | UpstreamFailure> {
    let res: AxiosResponse<GraphError>;
    try {
      res = await this.call<GraphError>('mark_read', {
        method: 'POST',
        url: `/${encodeURIComponent(phoneNumberId)}/messages`,
        headers: { authorization: `Bearer ${accessToken}` },
        data: { messaging_product: 'whatsapp', status: 'read', message_id: providerMessageId },
      });
    } catch (err) {
      return classifyFailure(null, null, `upstream unreachable: ${String(err)}`);
    }
    return isSuccess(res.status) ? { ok: true } : this.failureOf(res.status, res.data);
  }

  /** A media item: its lookup (`GET /{media_id}`), then its bytes from the address it gave, with the same token. */
  async openMedia(mediaId: string, accessToken: string, maxBytes: number): Promise<MediaAnswer> {
    const authorization = `Bearer ${accessToken}`;
    let res: AxiosResponse<MediaLookup & GraphError>;
    try {
      res = await this.call<MediaLookup & GraphError>('media_lookup', {
        method: 'GET',
        url: `/${encodeURIComponent(mediaId)}`,
        headers: { authorization },
      });
    } catch (err) {
      return refused(`upstream unreachable: ${String(err)}`);
    }
    const refusal = lookupRefusal(res.status, res.data, maxBytes, {
      gone: errorCodeOf(res.data) === 100,
      message: this.failureOf(res.status, res.data).message,
    });
    if (refusal !== undefined) return refusal;
    const started = process.hrtime.bigint();
    return openDownload(res.data, {
      agents: this.agents,
      timeoutMs: this.timeoutMs,
      maxBytes,
      headers: { authorization, ...traceHeaders() },
      answered: (status) =>
        this.metrics?.call('media_download', Number(process.hrtime.bigint() - started) / 1e9, status, null),
    });
  }

  /** Uploads a file as it streams in (see `postMultipart`); the answer's `id` is the media id for sends. */
  async uploadMedia(
    phoneNumberId: string,
    accessToken: string,
    upload: MediaUpload,
  ): Promise<{ ok: true; id: string } | UpstreamFailure> {
    const started = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
    let res: JsonAnswer<{ id?: string | number } & GraphError>;
    try {
      res = await postMultipart(
        this.endpoint,
        `/${encodeURIComponent(phoneNumberId)}/media`,
        upload,
        { authorization: `Bearer ${accessToken}`, ...traceHeaders() },
        { agent: this.agent, timeoutMs: this.timeoutMs },
      );
    } catch (err) {
      this.metrics?.call('media_upload', seconds(), null, null);
      return classifyFailure(
        null,
        null,
        `media upload failed: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    const data = typeof res.data === 'object' ? res.data : undefined;
    this.metrics?.call('media_upload', seconds(), res.status, errorCodeOf(data));
    const id = data?.id;
    if (isSuccess(res.status) && (typeof id === 'string' || typeof id === 'number') && id !== '')
      return { ok: true, id: String(id) };
    return this.failureOf(res.status, data);
  }

  /** One request carrying the current trace, timed and counted by operation, status and upstream error code. */
  private async call<T extends GraphError>(
    operation: UpstreamOperation,
    request: AxiosRequestConfig,
  ): Promise<AxiosResponse<T>> {
    const started = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
    try {
      const res = await this.http.request<T>({
        ...request,
        headers: { ...request.headers, ...traceHeaders() },
      });
      this.metrics?.call(operation, seconds(), res.status, errorCodeOf(res.data));
      return res;
    } catch (err) {
      this.metrics?.call(operation, seconds(), null, null);
      throw err;
    }
  }

  private failureOf(status: number, data: GraphError | undefined): UpstreamFailure {
    const error = data?.error;
    const message = error?.error_data?.details ?? error?.message ?? `HTTP ${status}`;
    return classifyFailure(errorCodeOf(data), status, message);
  }
}
