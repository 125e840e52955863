import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Express } from 'express';
import { ERROR_CODES, type ErrorCode } from '@bm/contracts';
import { newUlid } from '../ids';

export interface RunningServer {
  server: Server;
  port: number;
  url: string;
  /**
   * Stops accepting and lets in-flight requests finish; from then on every answer closes its connection, so a
   * keep-alive connection busy at the stop takes no further request and the close ends with the last answer.
   */
  close(): Promise<void>;
}

/**
 * A request Node's HTTP parser refuses before the app sees it (bad bytes in the request line or headers,
 * headers over the size limit) still gets the envelope, with a documented code, then the connection closes.
 */
function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable || err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const code: ErrorCode = err.code === 'HPE_HEADER_OVERFLOW' ? 'HEADERS_TOO_LARGE' : 'BAD_REQUEST';
  const { status, message } = ERROR_CODES[code];
  const body = JSON.stringify({ success: false, error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${newUlid()}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Listens on the port (0 picks a free one) and resolves once it accepts connections. */
export async function startHttpServer(app: Express, port: number, host = '0.0.0.0'): Promise<RunningServer> {
  const server = createServer(app);
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 120_000;
  server.on('clientError', answerClientError);
  const closeAfterAnswers = drainOnClose(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    server,
    port: actual,
    url: `http://127.0.0.1:${actual}`,
    close: () =>
      new Promise<void>((resolve) => {
        closeAfterAnswers();
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

/**
 * `server.close()` alone keeps a keep-alive connection that is busy at the stop open: its client (or a load
 * balancer's pool) goes on sending requests over it after readiness went false, and the close waits out the
 * shutdown timeout while the service's connections close under it. The returned function makes every answer
 * from then on close its connection, and closes each connection that goes idle (an answer in flight at the stop
 * finished) until the server has closed. Nothing is tracked per request before the stop.
 */
function drainOnClose(server: Server): () => void {
  let stopping = false;
  // Before the app's own listener, so the header is set before any route answers.
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (stopping) res.setHeader('connection', 'close');
  });
  return () => {
    if (stopping) return;
    stopping = true;
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    sweep.unref();
    server.once('close', () => clearInterval(sweep));
  };
}
