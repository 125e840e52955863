import { request as httpRequest } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  checkWebhookDeliveriesAgainstOpenApi,
  webhookProblems,
  webhooksChecked,
} from '../../../test/support/openapi-check';

/*
 * The check the e2e receivers run on every outbound webhook (test/support/openapi-check.ts): a delivery is held to
 * the document's `webhooks` section by its `event`, headers and body.
 */
const headers = {
  'user-agent': 'BusinessMessaging-Webhook/1.0',
  'content-type': 'application/json',
  accept: 'application/json',
  'x-webhook-timestamp': '2026-11-22T09:30:00+00:00',
  'x-webhook-id': 'evt_01JB0000000000000000000000',
};
const signature = `sha256=${'a'.repeat(64)}`;
const statusUpdated = {
  event: 'message.status_updated',
  tenant_id: 7,
  timestamp: '2026-11-22T09:30:00+00:00',
  message_log_id: 42,
  status: 'delivered',
  to_phone: '14155550100',
  provider_message_id: 'wamid.1',
  error_message: null,
  campaign_id: null,
};
const problemsOf = (body: unknown, extra: Record<string, unknown> = {}) =>
  webhookProblems({ headers: { ...headers, ...extra }, body: JSON.stringify(body) });

describe('outbound webhooks held to the OpenAPI document', () => {
  it('when a delivery matches its event, then it conforms, signed or not (the secret is optional)', () => {
    expect(problemsOf(statusUpdated)).toEqual([]);
    expect(problemsOf(statusUpdated, { 'x-webhook-signature': signature })).toEqual([]);
    expect(problemsOf(statusUpdated, { 'x-webhook-signature': `${signature} ${signature}` })).toEqual([]);
    expect(
      problemsOf({ event: 'webhook.test', tenant_id: 7, timestamp: statusUpdated.timestamp, message: 'hi' }),
    ).toEqual([]);
  });

  it('when the event is not in the document, then that alone is the problem', () => {
    expect(problemsOf({ ...statusUpdated, event: 'message.deleted' })).toEqual([
      "event message.deleted is not in the document's webhooks",
    ]);
    expect(problemsOf({ ...statusUpdated, event: 'constructor' })).toEqual([
      "event constructor is not in the document's webhooks",
    ]);
    expect(problemsOf({ tenant_id: 7 })).toEqual(['body has no string `event`']);
    expect(webhookProblems({ headers, body: 'not json' })).toEqual([
      expect.stringMatching(/^body is not JSON/),
    ]);
  });

  it('when the body departs from the event schema, then each departure is named', () => {
    const { campaign_id: _dropped, ...missing } = statusUpdated;
    expect(problemsOf(missing)).toEqual([expect.stringMatching(/required property 'campaign_id'/)]);
    expect(problemsOf({ ...statusUpdated, extra: 1 })).toEqual([
      expect.stringMatching(/must NOT have additional properties/),
    ]);
    expect(problemsOf({ ...statusUpdated, status: 'queued' })).toEqual([
      expect.stringMatching(/^body\/status must be equal to one of the allowed values/),
    ]);
    expect(problemsOf({ ...statusUpdated, timestamp: '2026-11-22T09:30:00.000Z' })).toEqual([
      expect.stringMatching(/^body\/timestamp must match pattern/),
    ]);
  });

  it('when a delivery header is missing or malformed, then it is named', () => {
    const { 'x-webhook-id': _id, ...noId } = headers;
    expect(webhookProblems({ headers: noId, body: JSON.stringify(statusUpdated) })).toEqual([
      'header X-Webhook-Id missing',
    ]);
    expect(problemsOf(statusUpdated, { 'x-webhook-signature': 'sha1=00' })).toEqual([
      expect.stringMatching(/^header X-Webhook-Signature: sha1=00 must match pattern/),
    ]);
    expect(problemsOf(statusUpdated, { 'content-type': 'text/plain' })).toEqual([
      'content-type text/plain, not application/json',
    ]);
  });

  it('when a local server receives a webhook, then the check sees its whole body and the server does too', async () => {
    checkWebhookDeliveriesAgainstOpenApi();
    const body = JSON.stringify(statusUpdated);
    let received = '';
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received = Buffer.concat(chunks).toString('utf8');
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const before = webhooksChecked();
      await new Promise<void>((resolve, reject) => {
        const req = httpRequest(
          {
            port: (server.address() as AddressInfo).port,
            host: '127.0.0.1',
            method: 'POST',
            path: '/hook',
            headers,
          },
          (res) => res.resume().on('end', resolve),
        );
        req.on('error', reject);
        req.end(body);
      });
      expect(received).toBe(body);
      expect(webhooksChecked()).toBe(before + 1);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
