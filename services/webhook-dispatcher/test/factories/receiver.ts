import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What the receiver does with a request: answer it, or hold it open (a hanging endpoint). */
export type Reply = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

export interface Receiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Connections accepted, answered or not: a refused address never opens one. */
  connections: number;
  /** Requests held open (answered or not, they stay listed). */
  held: ServerResponse[];
  /** Most requests in progress at one time. */
  maxOpen: number;
  close(): Promise<void>;
}

/** A real HTTP endpoint on 127.0.0.1 that records every request and answers with `reply` (default 200). */
export async function startReceiver(
  reply: (req: ReceivedRequest, index: number) => Reply = () => ({ status: 200 }),
): Promise<Receiver> {
  const sockets = new Set<Socket>();
  let open = 0;
  const receiver: Receiver = {
    url: '',
    port: 0,
    requests: [],
    connections: 0,
    held: [],
    maxOpen: 0,
    close: async () => {},
  };
  const server = createServer((req, res) => {
    open += 1;
    receiver.maxOpen = Math.max(receiver.maxOpen, open);
    res.on('close', () => (open -= 1));
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      const index = receiver.requests.push(received) - 1;
      const answer = reply(received, index);
      if (answer === 'hang') {
        receiver.held.push(res);
        return;
      }
      res.writeHead(answer.status, answer.headers ?? {}).end(answer.body ?? '');
    });
  });
  server.on('connection', (socket: Socket) => {
    receiver.connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return receiver;
}

/** Verifies X-Webhook-Signature as a client would: HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`. */
export function signaturesOf(req: ReceivedRequest, ...secrets: string[]): string {
  const timestamp = String(req.headers['x-webhook-timestamp']);
  return secrets
    .map((s) => `sha256=${createHmac('sha256', s).update(`${timestamp}.${req.body}`).digest('hex')}`)
    .join(' ');
}
