import { request as httpRequest, type Agent as HttpAgent } from 'node:http';
import { request as httpsRequest, type Agent as HttpsAgent } from 'node:https';
import { pipeline, Transform, type TransformCallback } from 'node:stream';
import type { UpstreamMedia } from '../../domain/ports/upstream.port';

export type MediaAnswer = Awaited<ReturnType<UpstreamMedia['openMedia']>>;

/** The media lookup's answer (`GET /{media_id}`) as the Graph API gives it. */
export interface MediaLookup {
  url?: unknown;
  mime_type?: unknown;
  file_size?: unknown;
}

// A whole download may take this long at most, however steadily the bytes come.
const DOWNLOAD_DEADLINE_MS = 5 * 60_000;

export const refused = (message: string): MediaAnswer => ({ ok: false, expired: false, message });

/**
 * Why a lookup's answer gives nothing to download, or undefined when it gives a media item's address. The
 * upstream's "no such object" (`error` says `gone`: its error 100, or HTTP 404 or 410) means it has expired; a
 * 2xx without an address is some other object of that id.
 */
export function lookupRefusal(
  status: number,
  data: MediaLookup | undefined,
  maxBytes: number,
  error: { gone: boolean; message: string },
): MediaAnswer | undefined {
  if (status >= 300 && status < 400)
    return refused(`the media lookup answered a redirect (${status}), which is not followed`);
  if (status < 200 || status >= 300)
    return { ok: false, expired: error.gone || status === 404 || status === 410, message: error.message };
  if (typeof data?.url !== 'string') return { ok: false, expired: true, message: 'no media item of that id' };
  if (typeof data.file_size === 'number' && data.file_size > maxBytes)
    return refused(`the media item is larger than ${maxBytes} bytes`);
  return undefined;
}

/** The base type (`image/jpeg`) when it is one; anything else is served as bytes. */
function contentTypeOf(...candidates: unknown[]): string {
  for (const value of candidates) {
    const type = typeof value === 'string' ? value.split(';')[0].trim().toLowerCase() : '';
    if (/^[a-z0-9][\w.+-]*\/[\w.+-]+$/.test(type)) return type;
  }
  return 'application/octet-stream';
}

/** Passes the bytes on until there are more than `maxBytes` (an answer of unstated length). */
function capped(maxBytes: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      seen += chunk.length;
      done(seen > maxBytes ? new Error(`the media item is larger than ${maxBytes} bytes`) : null, chunk);
    },
  });
}

export interface DownloadOptions {
  agents: { http: HttpAgent; https: HttpsAgent };
  /** The socket's idle time, before and during the body. */
  timeoutMs: number;
  maxBytes: number;
  headers: Record<string, string>;
  /** Called once with the answer's status, or null when none came. */
  answered(status: number | null): void;
}

/**
 * GETs the address the lookup gave, with the account's bearer token, and hands over the answer's body unread:
 * no redirect is followed (a 3xx is refused), a 404 or 410 means the upstream no longer has the item, and a
 * file above `maxBytes` is refused before (stated length) or while (unstated) it streams.
 */
export function openDownload(lookup: MediaLookup, options: DownloadOptions): Promise<MediaAnswer> {
  let target: URL;
  try {
    target = new URL(String(lookup.url));
  } catch {
    return Promise.resolve(refused('the media lookup gave no valid address'));
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    return Promise.resolve(refused(`the media lookup gave a ${target.protocol} address`));
  const https = target.protocol === 'https:';
  return new Promise((resolve) => {
    const req = (https ? httpsRequest : httpRequest)(target, {
      method: 'GET',
      agent: https ? options.agents.https : options.agents.http,
      headers: options.headers,
    });
    let settled = false;
    const settle = (answer: MediaAnswer, status: number | null) => {
      if (settled) return;
      settled = true;
      options.answered(status);
      resolve(answer);
    };
    const deadline = setTimeout(
      () => req.destroy(new Error(`the media download took over ${DOWNLOAD_DEADLINE_MS} ms`)),
      DOWNLOAD_DEADLINE_MS,
    );
    req.on('close', () => clearTimeout(deadline));
    req.setTimeout(options.timeoutMs, () =>
      req.destroy(new Error(`no data from the media download for ${options.timeoutMs} ms`)),
    );
    req.on('error', (err) => settle(refused(`media download failed: ${err.message}`), null));
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        res.destroy();
        const redirect = status >= 300 && status < 400;
        const message = redirect
          ? `the media download answered a redirect (${status}), which is not followed`
          : `the media download answered HTTP ${status}`;
        settle({ ok: false, expired: status === 404 || status === 410, message }, status);
        return;
      }
      const header = res.headers['content-length'];
      const length = header === undefined ? undefined : Number(header);
      if (length !== undefined && (!Number.isSafeInteger(length) || length > options.maxBytes)) {
        res.destroy();
        settle(refused(`the media item is larger than ${options.maxBytes} bytes`), status);
        return;
      }
      // Unstated length: counted as it passes; an error or a closed client on either side ends both.
      const body = length === undefined ? pipeline(res, capped(options.maxBytes), () => undefined) : res;
      const contentType = contentTypeOf(res.headers['content-type'], lookup.mime_type);
      settle({ ok: true, media: { contentType, contentLength: length, body } }, status);
    });
    req.end();
  });
}
