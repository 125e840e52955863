import { runMigrations } from '@bm/platform';
import { testEnv } from '@bm/platform/testing';
import { loadMessagingConfig } from '../../services/messaging/src/config';
import { createMessagingDataSource } from '../../services/messaging/src/data-access/data-source';
import { scratchDatabase } from '../support/scratch-database';

/**
 * MessageStatsFromHourly1767200000000 on a database of its own (it is undone here): the counting trigger stops
 * writing the daily counters, and undoing it brings the daily writes back with the daily rows rebuilt from the
 * hourly ones, so that the previous version's daily read misses nothing counted meanwhile.
 */
describe('the daily counters read from the hourly ones', () => {
  const scratch = scratchDatabase('stats');
  let ds: ReturnType<typeof createMessagingDataSource>;

  beforeAll(async () => {
    await scratch.create();
    ds = createMessagingDataSource(loadMessagingConfig(testEnv({ DATABASE_URL: scratch.url })));
    await runMigrations(ds);
  });
  afterAll(async () => {
    await ds?.destroy();
    await scratch.drop();
  });

  const query = <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> =>
    ds.query(sql, params);
  /** A message log of tenant 7 in `status`: the trigger counts it in the current hour (and day). */
  const log = (status: string) =>
    query(
      `INSERT INTO messaging.message_logs (tenant_id, channel_account_id, to_phone, message_type, content,
         conversation_category, status)
       VALUES (7, 'ACCOUNTA', '14155550100', 'template', '{}', 'UTILITY', $1)`,
      [status],
    );
  /** Tenant 7's counters by bucket and status, the shards summed. */
  const counters = (table: 'hourly' | 'daily') =>
    query<{ start: string; status: string; count: number }>(
      `SELECT to_char(${table === 'hourly' ? 'hour' : 'day'}, 'YYYY-MM-DD HH24:MI') AS start, status,
              sum(count)::int AS count
         FROM messaging.message_stats_${table} WHERE tenant_id = 7 GROUP BY 1, 2 ORDER BY 1, 2`,
    );
  const today = async () =>
    (await query<{ d: string }>(`SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS d`))[0].d;
  const foldIndex = async () =>
    (await query(`SELECT 1 FROM pg_indexes WHERE indexname = 'message_stats_hourly_unfolded_idx'`)).length;

  it('when it is undone and applied again, then the daily rows are the hours summed, written only while undone', async () => {
    await query(
      `INSERT INTO messaging.channel_accounts (id, tenant_id, phone_number_id, waba_id, business_id,
         display_phone_number, access_token_sealed, tier, throughput_per_second)
       VALUES ('ACCOUNTA', 7, '1${Date.now()}', '2${Date.now()}', '3${Date.now()}', '15550001111', 'sealed',
               'TIER_1K', 80)`,
    );
    await log('sent');
    await log('failed');
    // Counts of an earlier day, either side of its midnight, one hour's already folded (shard 0).
    await query(
      `INSERT INTO messaging.message_stats_hourly (tenant_id, hour, status, shard, count)
       VALUES (7, '2026-03-01 23:00', 'sent', 1001, 3), (7, '2026-03-01 23:00', 'sent', 1002, 2),
              (7, '2026-03-02 00:00', 'sent', 0, 4)`,
    );
    expect(await counters('daily')).toEqual([]);
    const day = await today();

    // Undone back through it (later migrations first), as a rollback to the release before it would.
    for (let undone = 0; (await foldIndex()) === 1 && undone < 5; undone += 1) {
      await ds.undoLastMigration({ transaction: 'each' });
    }
    expect(await foldIndex()).toBe(0);
    expect(await counters('daily')).toEqual([
      { start: '2026-03-01 00:00', status: 'sent', count: 5 },
      { start: '2026-03-02 00:00', status: 'sent', count: 4 },
      { start: `${day} 00:00`, status: 'failed', count: 1 },
      { start: `${day} 00:00`, status: 'sent', count: 1 },
    ]);
    await log('sent');
    expect((await counters('daily')).at(-1)).toEqual({ start: `${day} 00:00`, status: 'sent', count: 2 });

    expect((await runMigrations(ds))[0]).toBe('MessageStatsFromHourly1767200000000');
    expect(await foldIndex()).toBe(1);
    await log('sent');
    expect((await counters('daily')).at(-1)).toEqual({ start: `${day} 00:00`, status: 'sent', count: 2 });
    const todaySent = (await counters('hourly')).filter(
      (r) => r.start.startsWith(day) && r.status === 'sent',
    );
    expect(todaySent.reduce((sum, r) => sum + r.count, 0)).toBe(3);
  });
});
