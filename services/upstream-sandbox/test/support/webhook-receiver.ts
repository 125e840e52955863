import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StatusItem, WebhookPayload } from './wire-types';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  raw: string;
  json: WebhookPayload;
  answeredWith: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Chooses the status code of each answer; 200 unless set. */
  respond: (raw: string, attempt: number) => number;
  close(): Promise<void>;
}

/** A real local HTTP endpoint that records every webhook with its exact bytes and headers. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    respond: () => 200,
    close: () => Promise.resolve(),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const attempt = receiver.received.filter((r) => r.raw === raw).length + 1;
      const status = receiver.respond(raw, attempt);
      receiver.received.push({
        headers: req.headers,
        raw,
        json: JSON.parse(raw) as WebhookPayload,
        answeredWith: status,
      });
      res.statusCode = status;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return receiver;
}

/** True when the `X-Hub-Signature-256` header is the HMAC-SHA256 of the raw body with the secret. */
export function hasValidSignature(webhook: ReceivedWebhook, secret: string): boolean {
  const header = webhook.headers['x-hub-signature-256'];
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const expected = createHmac('sha256', secret).update(webhook.raw).digest();
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The statuses received for one message id, in arrival order, first copy of each only. */
export function statusesFor(receiver: WebhookReceiver, messageId: string): StatusItem[] {
  return receiver.received
    .filter((r) => r.answeredWith >= 200 && r.answeredWith < 300)
    .flatMap((r) => r.json.entry.flatMap((e) => e.changes.flatMap((c) => c.value.statuses ?? [])))
    .filter((s) => s.id === messageId);
}
