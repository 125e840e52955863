import { Client } from 'pg';
import {
  createDataSource,
  createLogger,
  runMigrations,
  SecretBox,
  startHttpServer,
  type RunningServer,
} from '@bm/platform';
import { testEnv, uniqueSuffix, waitFor } from '@bm/platform/testing';
import { loadMessagingConfig } from '../../services/messaging/src/config';
import { createMessagingDataSource } from '../../services/messaging/src/data-access/data-source';
import { createMessagingService, type MessagingService } from '../../services/messaging/src/messaging';
import { createSandboxApp, type SandboxApp } from '../../services/upstream-sandbox/src/app';
import { loadSandboxConfig } from '../../services/upstream-sandbox/src/config';
import { scratchDatabase } from '../support/scratch-database';
import { randomPhone } from '../support/stack';

/** The first migration of the 2026 network: the schema before it is the one deployed today. */
const FIRST_2026_MIGRATION = 'HoldsAndRetries1766000000000';

/**
 * CONTRACT.md and issue 32, "upgrades keep data": a database at today's schema, with messages in every state and
 * one in flight, upgraded by the 2026 migrations, keeps every row, fills the new columns (accounts' business_id
 * from their waba_id, the counted conversations' portfolio), and a service started on it then sends the message
 * that was waiting, once.
 */
describe('upgrading a populated database to the 2026 schema', () => {
  const scratch = scratchDatabase('upg');
  const url = new URL(scratch.url);
  const env = testEnv({
    DATABASE_URL: url.toString(),
    STRANDED_AFTER_MS: '1000',
    SCHEDULER_INTERVAL_MS: '100',
  });
  let db: Client;
  let sandbox: SandboxApp;
  let sandboxServer: RunningServer;
  let service: MessagingService | undefined;

  beforeAll(async () => {
    await scratch.create();
    db = new Client({ connectionString: url.toString() });
    await db.connect();
    sandbox = createSandboxApp(
      loadSandboxConfig({ LOG_LEVEL: 'error', SANDBOX_STATUS_DELAYS_MS: '', SANDBOX_DEFAULT_MPS: '0' }),
      createLogger('sandbox', 'silent'),
    );
    sandboxServer = await startHttpServer(sandbox.app, 0, '127.0.0.1');
  });
  afterAll(async () => {
    await service?.close();
    await sandboxServer.close();
    await sandbox.close();
    await db.end();
    await scratch.drop();
  });

  /** The messaging schema as deployed before the 2026 network: every migration before its first. */
  async function migrateToToday(): Promise<void> {
    const full = createMessagingDataSource(loadMessagingConfig(env));
    const all = full.options.migrations as Array<new () => { name?: string }>;
    const before = all.slice(
      0,
      all.findIndex((m) => new m().name === FIRST_2026_MIGRATION),
    );
    expect(before.length).toBeGreaterThan(10);
    const today = createDataSource({
      url: url.toString(),
      schema: 'messaging',
      entities: [],
      migrations: before,
      poolSize: 2,
      applicationName: 'upgrade-test',
    });
    await runMigrations(today);
    await today.destroy();
  }

  it('when the 2026 migrations run on a populated database, then nothing is lost or doubled and the waiting message is sent once', async () => {
    await migrateToToday();
    const config = loadMessagingConfig(env);
    const sealed = new SecretBox(config.ENCRYPTION_KEY).seal('sandbox-token');
    const [waba, phoneA, phoneB, waiting] = [`2${Date.now()}`, randomPhone(), randomPhone(), randomPhone()];
    const numbers = [`1${Date.now()}`, `3${Date.now()}`];
    for (const [i, id] of ['ACCOUNTA', 'ACCOUNTB'].entries()) {
      await db.query(
        `INSERT INTO messaging.channel_accounts
           (id, tenant_id, phone_number_id, waba_id, display_phone_number, access_token_sealed, tier, throughput_per_second)
         VALUES ($1, 7, $2, $3, '15550001111', $4, 'TIER_1K', 80)`,
        [id, numbers[i], waba, sealed],
      );
    }
    const template = JSON.stringify({ name: 'hello_world', language: 'en_US', components: [] });
    const insert = (status: string, phone: string, wamid: string | null, errorCode: number | null) =>
      db.query(
        `INSERT INTO messaging.message_logs (tenant_id, channel_account_id, to_phone, message_type, content,
           template_category, conversation_category, status, provider_message_id, error_code)
         VALUES (7, 'ACCOUNTA', $1, 'template', $2, 'UTILITY', 'UTILITY', $3, $4, $5) RETURNING id`,
        [phone, template, status, wamid, errorCode],
      );
    await insert('sent', phoneA, `wamid.old.${uniqueSuffix()}`, null);
    await insert('failed', phoneB, null, 131026);
    // Queued with no delivery command (it was in the broker when the old version stopped): the sweep sends it.
    const queued = (await insert('queued', waiting, null, null)).rows[0] as { id: string };
    await db.query(
      `INSERT INTO messaging.conversations (channel_account_id, customer_phone, message_log_id, reference)
       VALUES ('ACCOUNTA', $1, 1, NULL), ('ACCOUNTB', $2, NULL, NULL)`,
      [phoneA, phoneB],
    );
    await db.query(
      `INSERT INTO messaging.inbound_messages (provider_message_id, tenant_id, channel_account_id, from_phone, type, body, received_at)
       VALUES ('wamid.in.old', 7, 'ACCOUNTA', $1, 'text', '{}', now())`,
      [phoneA],
    );
    const count = async (table: string) =>
      Number((await db.query(`SELECT count(*) AS n FROM messaging.${table}`)).rows[0].n);
    const before = {
      logs: await count('message_logs'),
      conversations: await count('conversations'),
      inbound: await count('inbound_messages'),
    };

    const upgrade = createMessagingDataSource(loadMessagingConfig(env));
    await runMigrations(upgrade);
    await upgrade.destroy();
    service = await createMessagingService(
      loadMessagingConfig({ ...env, UPSTREAM_BASE_URL: sandboxServer.url }),
    );
    await service.startWorkers();

    expect({
      logs: await count('message_logs'),
      conversations: await count('conversations'),
      inbound: await count('inbound_messages'),
    }).toEqual(before);
    const accounts = await db.query('SELECT business_id FROM messaging.channel_accounts ORDER BY id');
    expect(accounts.rows).toEqual([{ business_id: waba }, { business_id: waba }]);
    const conversations = await db.query('SELECT DISTINCT business_id FROM messaging.conversations');
    expect(conversations.rows).toEqual([{ business_id: waba }]);
    const old = await db.query(
      `SELECT status, error_code, held, played_at, pricing FROM messaging.message_logs
        WHERE status IN ('sent', 'failed') ORDER BY id`,
    );
    expect(old.rows).toEqual([
      { status: 'sent', error_code: null, held: false, played_at: null, pricing: null },
      { status: 'failed', error_code: 131026, held: false, played_at: null, pricing: null },
    ]);
    const inbound = await db.query('SELECT from_phone, from_user_id FROM messaging.inbound_messages');
    expect(inbound.rows).toEqual([{ from_phone: phoneA, from_user_id: null }]);

    const sent = await waitFor(
      async () => {
        const r = await db.query('SELECT status FROM messaging.message_logs WHERE id = $1', [queued.id]);
        return (r.rows[0] as { status: string }).status === 'sent' || undefined;
      },
      { timeoutMs: 15_000, what: 'the waiting message sent after the upgrade' },
    );
    expect(sent).toBe(true);
    const calls = sandbox.state.sends.filter((s) => (s.body as { to?: string }).to === waiting);
    expect(calls).toHaveLength(1);
  });
});
