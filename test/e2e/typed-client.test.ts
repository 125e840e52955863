import { waitFor } from '@bm/platform/testing';
import {
  allMessages,
  createBmClient,
  pollMessage,
  sendMessage,
  unwrap,
  type MessageStatus,
} from '@bm/client';
import { verifyWebhookSignature } from '@bm/client/webhooks';
import { startReceiver, type Receiver } from '../../services/webhook-dispatcher/test/factories/receiver';
import { startFullStack, type FullStack } from '../support/full-stack';
import { createTenant, randomPhone, type TenantFixture } from '../support/stack';

describe('libs/client against the real stack', () => {
  let env: FullStack;
  let t: TenantFixture;
  let receiver: Receiver;

  beforeAll(async () => {
    // The full stack: webhook-ingress takes the sandbox's status reports, so a message goes on to read.
    env = await startFullStack();
    t = await createTenant(env.stack);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await env.stop();
    await receiver.close();
  });

  it('when an integrator sends a template with the typed client, then poll follows it to read and list finds it', async () => {
    const client = createBmClient({ baseUrl: env.gatewayUrl, apiKey: t.apiKey });
    const phone = randomPhone();
    const ack = await sendMessage(
      client,
      {
        channel_account_id: t.channelAccountId,
        phone: `+${phone}`,
        message_type: 'template',
        data: { name: 'hello_world' },
      },
      { idempotencyKey: `typed-client-${phone}` },
    );
    expect(ack.status).toBe('queued');

    const seen: MessageStatus[] = [];
    const final = await pollMessage(client, ack.message_log_id, {
      intervalMs: 200,
      timeoutMs: 20_000,
      onStatus: (m) => seen.push(m.status),
    });
    expect(final.status).toBe('read');
    expect(seen.at(-1)).toBe('read');

    const listed: number[] = [];
    for await (const message of allMessages(client, { to_phone: `+${phone}`, per_page: 1 })) {
      listed.push(message.message_log_id);
    }
    expect(listed).toEqual([ack.message_log_id]);
  });

  it('when a webhook arrives, then verifyWebhookSignature accepts it and refuses a tampered body or another secret', async () => {
    const client = createBmClient({ baseUrl: env.gatewayUrl, apiKey: t.apiKey });
    const { secret } = unwrap(await client.POST('/api/v1/webhooks/settings/secret'));
    unwrap(await client.PUT('/api/v1/webhooks/settings', { body: { url: `${receiver.url}/hooks` } }));
    const { delivery_id } = unwrap(await client.POST('/api/v1/webhooks/test'));
    expect(delivery_id).toBeDefined();

    const req = await waitFor(() => receiver.requests.find((r) => r.body.includes('"webhook.test"')), {
      what: 'webhook.test delivery',
      timeoutMs: 20_000,
    });
    expect(verifyWebhookSignature(secret, req.headers, req.body)).toBe(true);
    expect(verifyWebhookSignature(secret, req.headers, `${req.body} `)).toBe(false);
    expect(verifyWebhookSignature(`${secret}x`, req.headers, req.body)).toBe(false);
    expect(
      verifyWebhookSignature(secret, req.headers, req.body, { now: new Date(Date.now() + 3_600_000) }),
    ).toBe(false);
  });

  it('when the API refuses a call, then the helpers throw ApiError with its documented code', async () => {
    const client = createBmClient({ baseUrl: env.gatewayUrl, apiKey: t.apiKey });
    await expect(pollMessage(client, 2_000_000_000)).rejects.toMatchObject({
      name: 'ApiError',
      status: 404,
      code: 'MESSAGE_NOT_FOUND',
    });
  });
});
