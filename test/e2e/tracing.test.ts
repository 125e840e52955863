import { randomBytes } from 'node:crypto';
import { DIRECT_STATUS_ROUTING_KEY, DOMAIN_EVENTS } from '@bm/contracts';
import { parseTraceparent } from '@bm/platform';
import { uniqueSuffix, waitFor } from '@bm/platform/testing';
import request from 'supertest';
import { itemsOf, publishInbound, statusReport } from '../support/events';
import { postSend, waitForStatus } from '../support/messages';
import { createTenant, startStack, type Stack, type TenantFixture } from '../support/stack';

describe('one trace from the client through messaging and the broker', () => {
  let stack: Stack;
  let t: TenantFixture;
  const statusEvents: Array<{ payload: Record<string, unknown>; headers: Record<string, unknown> }> = [];

  beforeAll(async () => {
    stack = await startStack();
    t = await createTenant(stack);
    // A single send's status events come under the direct key (campaign's queue does not take them), or in a batch
    // of them, each with its own trace.
    await stack.broker.consume(
      `e2e.trace.${uniqueSuffix()}`,
      [DIRECT_STATUS_ROUTING_KEY, DOMAIN_EVENTS.messageStatusesUpdated],
      async (m) => {
        for (const e of itemsOf(m.routingKey, m.payload as Record<string, unknown>, m.headers))
          statusEvents.push({ payload: e.payload, headers: { traceparent: e.traceparent } });
        await Promise.resolve();
      },
    );
  });
  afterAll(() => stack.stop());

  it("when a send carries traceparent, then every message.status_updated event of it (sent, and delivered and read from the upstream's receipts) carries the same trace id", async () => {
    const traceId = randomBytes(16).toString('hex');
    const res = await postSend(stack, t, {}, { traceparent: `00-${traceId}-00f067aa0ba902b7-01` }).expect(
      202,
    );
    const id = res.body.data.message_log_id as number;
    await waitForStatus(stack, t, id, ['sent']);

    const sent = await waitFor(
      () => statusEvents.find((e) => e.payload.message_log_id === id && e.payload.status === 'sent'),
      { what: 'the sent event' },
    );
    const trace = parseTraceparent(sent.headers.traceparent);
    expect(trace?.traceId).toBe(traceId);

    // The upstream's receipts carry no trace (webhook-ingress starts a new one for each webhook): the delivered
    // and read events still continue the send's trace, so the client's receiver sees one trace id throughout.
    const message = await request(stack.gatewayUrl).get(`/api/v1/messages/${id}`).set(t.auth).expect(200);
    const wamid = message.body.data.provider_message_id as string;
    // One at a time: a read applied first would make the delivered receipt a late one, which emits nothing.
    for (const status of ['delivered', 'read']) {
      await publishInbound(stack, 'inbound.status', statusReport(t, wamid, status));
      const event = await waitFor(
        () => statusEvents.find((e) => e.payload.message_log_id === id && e.payload.status === status),
        { what: `the ${status} event` },
      );
      expect(parseTraceparent(event.headers.traceparent)?.traceId).toBe(traceId);
    }

    // Another send without a traceparent is a trace of its own.
    const other = (await postSend(stack, t).expect(202)).body.data.message_log_id as number;
    const otherSent = await waitFor(
      () => statusEvents.find((e) => e.payload.message_log_id === other && e.payload.status === 'sent'),
      { what: 'the other sent event' },
    );
    const otherTrace = parseTraceparent(otherSent.headers.traceparent);
    expect(otherTrace?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(otherTrace?.traceId).not.toBe(traceId);
  });
});
