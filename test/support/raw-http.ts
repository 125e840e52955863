import { Agent, request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { connect } from 'node:net';

export interface RawRequest {
  method: string;
  /** Sent exactly as given: no normalization, no encoding. */
  path: string;
  headers?: OutgoingHttpHeaders;
  body?: Buffer | string;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * HTTP/1.1 over keep-alive sockets with nothing between the test and the server: bytes go as given, so a test
 * can send what a well-behaved client library would refuse to (bogus content types, odd paths, broken bodies).
 */
export class RawClient {
  private readonly agent: Agent;
  private readonly base: URL;

  constructor(baseUrl: string, maxSockets = 16) {
    this.base = new URL(baseUrl);
    this.agent = new Agent({ keepAlive: true, maxSockets });
  }

  send(req: RawRequest): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const body = typeof req.body === 'string' ? Buffer.from(req.body) : req.body;
      const r = httpRequest(
        {
          agent: this.agent,
          host: this.base.hostname,
          port: this.base.port,
          method: req.method,
          path: req.path,
          headers: {
            ...(body === undefined ? {} : { 'content-length': body.length }),
            ...req.headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        },
      );
      r.on('error', reject);
      r.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Writes raw bytes on a fresh connection and returns everything the server answers before it closes. */
export function sendRawBytes(baseUrl: string, bytes: Buffer | string, timeoutMs = 5_000): Promise<Buffer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(timeoutMs, () => socket.destroy());
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', () => resolve(Buffer.concat(chunks)));
    socket.on('error', reject);
    socket.write(bytes);
  });
}
