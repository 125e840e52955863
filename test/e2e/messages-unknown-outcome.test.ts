import request from 'supertest';
import { waitFor } from '@bm/platform/testing';
import { collectEvents } from '../support/events';
import { startIngress, type IngressFixture } from '../support/ingress';
import { readMessage, sendTemplate, waitForStatus, type MessageView } from '../support/messages';
import { createTenant, randomPhone, startStack, type Stack, type TenantFixture } from '../support/stack';

/*
 * Sends whose answer never arrived although the upstream took them: the sandbox accepts, reports the statuses
 * (echoing the send's biz_opaque_callback_data) to webhook-ingress, and resets the connection instead of
 * answering, or answers after the worker's timeout. The reconciliation window is shortened to 3 s.
 */

interface SandboxRecord {
  result: string;
  message_id?: string;
  answer_dropped?: boolean;
  statuses: string[];
  body: { biz_opaque_callback_data?: string };
}

const WINDOW_MS = 3000;
const messagingEnv = (policy: 'fail' | 'resend') => ({
  UPSTREAM_TIMEOUT_MS: '1500',
  ATTEMPT_GRACE_MS: '300',
  UNKNOWN_OUTCOME_WINDOW_MS: String(WINDOW_MS),
  UNKNOWN_OUTCOME_POLICY: policy,
});

async function records(stack: Stack, phone: string): Promise<SandboxRecord[]> {
  return (await request(stack.sandboxUrl).get(`/_sandbox/sends?to=${phone}`).expect(200)).body
    .data as SandboxRecord[];
}

/** The sandbox's status offsets after acceptance for the sends of this test (sent, delivered, read). */
async function statusDelays(stack: Stack, delays: number[]): Promise<void> {
  await request(stack.sandboxUrl).put('/_sandbox/config').send({ status_delays_ms: delays }).expect(200);
}

/** The next `times` sends to the phone are accepted and reported, but their answer is lost after `afterMs`. */
async function dropAnswers(stack: Stack, phone: string, times: number, afterMs = 0): Promise<void> {
  await request(stack.sandboxUrl)
    .post('/_sandbox/faults')
    .send({ match: { to: phone }, drop_answer: true, delay_ms: afterMs, times })
    .expect(201);
}

/** Waits until the sandbox has delivered (to ingress) every listed status of the phone's sends. */
async function statusesReported(stack: Stack, phone: string, statuses: string[][]): Promise<void> {
  await waitFor(
    async () => {
      const sends = await records(stack, phone);
      return statuses.every((wanted, i) => wanted.every((s) => sends[i]?.statuses.includes(s)));
    },
    { timeoutMs: 15_000, what: `statuses ${JSON.stringify(statuses)} reported` },
  );
}

type Seen = Awaited<ReturnType<typeof collectEvents>>;
/** The statuses of the message's `message.status_updated` events, in arrival order. */
const eventsOf = (seen: Seen, id: number) =>
  seen.filter((e) => e.payload.message_log_id === id).map((e) => e.payload.status as string);

/** Reads the message once more after the consumer has had time to apply anything still on its way. */
async function settledView(stack: Stack, t: TenantFixture, id: number): Promise<MessageView> {
  await new Promise((r) => setTimeout(r, 1500));
  return readMessage(stack, t, id);
}

interface Context {
  stack: Stack;
  t: TenantFixture;
  seen: Seen;
}

/** A stack with webhook-ingress whose messaging settles unknown outcomes by `policy`, a tenant, its events. */
function useStack(policy: 'fail' | 'resend'): Context {
  const context = {} as Context;
  let ingress: IngressFixture;
  beforeAll(async () => {
    context.stack = await startStack({ messagingEnv: messagingEnv(policy) });
    ingress = await startIngress(context.stack);
    context.t = await createTenant(context.stack);
    context.seen = await collectEvents(context.stack, ['message.status_updated']);
  });
  afterAll(async () => {
    await ingress.stop();
    await context.stack.stop();
  });
  return context;
}

describe('a send whose answer was lost, under the default policy (fail)', () => {
  const c = useStack('fail');

  it('when the answer is lost after the request was written and the statuses follow, then the message takes the wamid of its sent status, reaches delivered and emits each status once', async () => {
    const { stack, t, seen } = c;
    await statusDelays(stack, [200, 400]);
    const phone = randomPhone();
    await dropAnswers(stack, phone, 1);

    const id = await sendTemplate(stack, t, { phone });

    const delivered = await waitForStatus(stack, t, id, ['delivered', 'failed'], 15_000);
    const [send] = await records(stack, phone);
    expect(send).toMatchObject({ result: 'accepted', answer_dropped: true });
    expect(send.body.biz_opaque_callback_data).toBe(`bm1:${id}:1`);
    expect(delivered).toMatchObject({ status: 'delivered', provider_message_id: send.message_id });
    await waitFor(() => eventsOf(seen, id).length >= 2, { what: 'status events' });
    expect((await settledView(stack, t, id)).status).toBe('delivered');
    expect(eventsOf(seen, id)).toEqual(['sent', 'delivered']);
    expect(await records(stack, phone)).toHaveLength(1);
  });

  it('when the statuses arrive before the worker notices the lost answer, then they are kept and applied, once', async () => {
    const { stack, t, seen } = c;
    await statusDelays(stack, [50, 100]);
    const phone = randomPhone();
    // The connection is reset a second after the acceptance: both statuses are in by then.
    await dropAnswers(stack, phone, 1, 1000);

    const id = await sendTemplate(stack, t, { phone });

    const delivered = await waitForStatus(stack, t, id, ['delivered', 'failed'], 15_000);
    const [send] = await records(stack, phone);
    expect(delivered).toMatchObject({ status: 'delivered', provider_message_id: send.message_id });
    // The worker sees the reset after this; the message keeps what the statuses gave it.
    await new Promise((r) => setTimeout(r, 1000));
    const after = await settledView(stack, t, id);
    expect(after).toMatchObject({ status: 'delivered', provider_message_id: send.message_id });
    expect(eventsOf(seen, id)).toEqual(['sent', 'delivered']);
    expect(await records(stack, phone)).toHaveLength(1);
  });

  it('when the call times out and the upstream takes the message after all, then the message is reconciled from its statuses and never sent twice', async () => {
    const { stack, t, seen } = c;
    await statusDelays(stack, [50, 100]);
    const phone = randomPhone();
    // Held past the worker's 1.5 s timeout, then accepted.
    await request(stack.sandboxUrl)
      .post('/_sandbox/faults')
      .send({ match: { to: phone }, delay_ms: 2000, times: 1 })
      .expect(201);

    const id = await sendTemplate(stack, t, { phone });

    const delivered = await waitForStatus(stack, t, id, ['delivered', 'failed'], 15_000);
    const sends = await records(stack, phone);
    expect(sends).toHaveLength(1);
    expect(delivered).toMatchObject({ status: 'delivered', provider_message_id: sends[0].message_id });
    expect((await settledView(stack, t, id)).status).toBe('delivered');
    expect(await records(stack, phone)).toHaveLength(1);
    expect(eventsOf(seen, id)).toEqual(['sent', 'delivered']);
  });

  it('when no status report comes within the window, then the message fails as outcome unknown, and a late report changes nothing', async () => {
    const { stack, t, seen } = c;
    // The statuses come well after the window.
    await statusDelays(stack, [WINDOW_MS + 2500, WINDOW_MS + 2600]);
    const phone = randomPhone();
    await dropAnswers(stack, phone, 1);

    const id = await sendTemplate(stack, t, { phone });

    expect((await readMessage(stack, t, id)).status).toBe('queued');
    const failed = await waitForStatus(stack, t, id, ['failed', 'sent', 'delivered'], 15_000);
    expect(failed).toMatchObject({ status: 'failed', provider_message_id: null });
    expect(failed.error_message).toMatch(/outcome unknown/);
    await statusesReported(stack, phone, [['sent', 'delivered']]);
    expect(await settledView(stack, t, id)).toMatchObject({
      status: 'failed',
      provider_message_id: null,
      error_message: failed.error_message,
    });
    expect(eventsOf(seen, id)).toEqual(['failed']);
    expect(await records(stack, phone)).toHaveLength(1);
  });
});

describe('a send whose answer was lost, under the policy resend', () => {
  const c = useStack('resend');

  it("when no status report comes within the window, then the message is sent once more and takes the resend's wamid; the first attempt's late report changes nothing", async () => {
    const { stack, t, seen } = c;
    await statusDelays(stack, [WINDOW_MS + 2500, WINDOW_MS + 2600]);
    const phone = randomPhone();
    await dropAnswers(stack, phone, 1);

    const id = await sendTemplate(stack, t, { phone });

    const sent = await waitForStatus(stack, t, id, ['sent', 'failed'], 15_000);
    const sends = await records(stack, phone);
    expect(sends.map((s) => [s.result, s.answer_dropped ?? false, s.body.biz_opaque_callback_data])).toEqual([
      ['accepted', true, `bm1:${id}:1`],
      ['accepted', false, `bm1:${id}:2`],
    ]);
    expect(sent).toMatchObject({ status: 'sent', provider_message_id: sends[1].message_id });
    // Both attempts' statuses come in: the first one's change nothing, the resend's move the message on.
    await statusesReported(stack, phone, [
      ['sent', 'delivered'],
      ['sent', 'delivered'],
    ]);
    const delivered = await waitForStatus(stack, t, id, ['delivered'], 15_000);
    expect(delivered.provider_message_id).toBe(sends[1].message_id);
    expect((await settledView(stack, t, id)).status).toBe('delivered');
    expect(eventsOf(seen, id)).toEqual(['sent', 'delivered']);
    expect(await records(stack, phone)).toHaveLength(2);
  });

  it("when the resend's answer is lost too and no report comes, then the message fails: never a third send", async () => {
    const { stack, t, seen } = c;
    await statusDelays(stack, []);
    const phone = randomPhone();
    await dropAnswers(stack, phone, 2);

    const id = await sendTemplate(stack, t, { phone });

    const failed = await waitForStatus(stack, t, id, ['failed', 'sent'], 20_000);
    expect(failed.status).toBe('failed');
    expect(failed.error_message).toMatch(/outcome unknown/);
    expect((await settledView(stack, t, id)).status).toBe('failed');
    expect((await records(stack, phone)).map((s) => s.answer_dropped)).toEqual([true, true]);
    expect(eventsOf(seen, id)).toEqual(['failed']);
  });
});
