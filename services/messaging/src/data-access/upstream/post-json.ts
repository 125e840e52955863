import { request as httpRequest, type Agent as HttpAgent, type ClientRequest } from 'node:http';
import { request as httpsRequest, type Agent as HttpsAgent } from 'node:https';

/** An answer of the upstream: its HTTP status and its body, parsed when it is JSON (else the text). */
export interface JsonAnswer<T> {
  status: number;
  data: T | string | undefined;
}

/**
 * No answer came (refused, reset, timed out). `written`: the request had been written in full (the socket took its
 * last byte) before that, so the upstream may have taken it; otherwise nothing was sent.
 */
export class NoAnswer extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly written: boolean,
  ) {
    super(message);
  }
}

/** Where the requests go: the base URL's parts, parsed once. */
export interface Endpoint {
  https: boolean;
  hostname: string;
  port: string;
  basePath: string;
}

export function endpointOf(baseUrl: string): Endpoint {
  const url = new URL(baseUrl);
  return {
    https: url.protocol === 'https:',
    hostname: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port,
    basePath: url.pathname.replace(/\/$/, ''),
  };
}

const parse = <T>(text: string): T | string | undefined => {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return text;
  }
};

/**
 * POSTs a JSON body on the keep-alive pool and reads the whole answer, whatever its status. The hot path's own
 * request (node:http, no client library on top: the send is the worker's most frequent call): `timeoutMs` is
 * the socket's idle time, as axios's `timeout` is, and `NoAnswer.written` reads the same
 * `ClientRequest.writableFinished` that the unknown-outcome rule rests on.
 */
export function postJson<T>(
  endpoint: Endpoint,
  path: string,
  body: unknown,
  headers: Record<string, string>,
  options: { agent: HttpAgent | HttpsAgent; timeoutMs: number },
): Promise<JsonAnswer<T>> {
  const payload = Buffer.from(JSON.stringify(body));
  return post<T>(
    endpoint,
    path,
    { 'content-type': 'application/json', 'content-length': payload.length, ...headers },
    options,
    (req) => req.end(payload),
  );
}

/**
 * POSTs on the keep-alive pool, the body written by `write` (which calls `fail` if its source breaks), and reads
 * the whole answer as `postJson` does.
 */
export function post<T>(
  endpoint: Endpoint,
  path: string,
  headers: Record<string, string | number>,
  options: { agent: HttpAgent | HttpsAgent; timeoutMs: number },
  write: (req: ClientRequest, fail: (err: Error & { code?: string }) => void) => void,
): Promise<JsonAnswer<T>> {
  return new Promise((resolve, reject) => {
    const req = (endpoint.https ? httpsRequest : httpRequest)({
      method: 'POST',
      hostname: endpoint.hostname,
      port: endpoint.port,
      path: endpoint.basePath + path,
      agent: options.agent,
      headers: { accept: 'application/json', ...headers },
    });
    let settled = false;
    const fail = (err: Error & { code?: string }) => {
      if (settled) return;
      settled = true;
      const written = req.writableFinished;
      req.destroy();
      reject(new NoAnswer(err.message, err.code, written));
    };
    req.setTimeout(options.timeoutMs, () =>
      fail(Object.assign(new Error(`timeout of ${options.timeoutMs}ms exceeded`), { code: 'ECONNABORTED' })),
    );
    req.on('error', fail);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', fail);
      res.on('close', () => {
        if (!res.complete) fail(Object.assign(new Error('the answer was cut short'), { code: 'ECONNRESET' }));
      });
      res.on('end', () => {
        if (settled) return;
        settled = true;
        resolve({ status: res.statusCode ?? 0, data: parse<T>(Buffer.concat(chunks).toString('utf8')) });
      });
    });
    write(req, fail);
  });
}
