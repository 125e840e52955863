import { testEnv, waitFor } from '@bm/platform/testing';
import { startCuttableProxy } from '../../../test/support/cuttable-proxy';
import { connectTenant, freshPhone, setupMessaging, type MessagingContext } from './factories/messaging';

/*
 * Issue 33, an answer in hand is never thrown away: when the worker holds the upstream's answer and cannot record
 * it because the database is away, it keeps it and records it when the database is back. Messaging reaches
 * PostgreSQL through a proxy the test cuts while the upstream's answer is on its way.
 */
describe('messaging alone: an answer in hand through a database outage', () => {
  /** Longer than the worker's longest pause between two tries of the write (5 s). */
  const OUTAGE_MS = 8_000;
  let proxy: Awaited<ReturnType<typeof startCuttableProxy>>;
  let m: MessagingContext;

  beforeAll(async () => {
    const direct = new URL(testEnv().DATABASE_URL ?? '');
    proxy = await startCuttableProxy(Number(direct.port || 5432));
    const proxied = new URL(direct);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    m = await setupMessaging({
      DATABASE_URL: proxied.toString(),
      // The outage outlasts the reconciliation window and the worker's lease: neither may settle the send while
      // the worker holds its answer.
      UPSTREAM_TIMEOUT_MS: '3000',
      ATTEMPT_GRACE_MS: '300',
      UNKNOWN_OUTCOME_WINDOW_MS: '1000',
      SEND_WORKER_LEASE_MS: '2000',
    });
  });

  afterAll(async () => {
    proxy.restore();
    await m.stop();
    await proxy.close();
  });

  it('when the upstream accepts a send while PostgreSQL is away, longer than the window and the lease, then its answer is recorded once it is back, and it is never sent again', async () => {
    const t = await connectTenant(m);
    const phone = freshPhone();
    const wamid = `wamid.in-hand.${phone}`;
    let answer!: () => void;
    m.upstream.script(phone, { wamid, release: new Promise<void>((resolve) => (answer = resolve)) });
    const id = (await t.send({ phone }).expect(202)).body.data.message_log_id as number;
    await waitFor(() => (m.upstream.sendsTo(phone).length === 1 ? true : undefined), {
      timeoutMs: 10_000,
      what: 'the send at the upstream',
    });

    proxy.cut();
    answer();
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    proxy.restore();

    const sent = await t.messageIn(id, ['sent', 'failed'], 30_000);
    expect(sent).toMatchObject({ status: 'sent', provider_message_id: wamid, error_message: null });
    // Long enough for a sweep that took the send for unknown to have sent it again.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(m.upstream.sendsTo(phone)).toHaveLength(1);
  }, 60_000);
});
