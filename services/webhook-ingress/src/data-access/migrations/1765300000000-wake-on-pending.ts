import type { QueryRunner } from 'typeorm';
import { createWakeTrigger, dropWakeTrigger, sqlMigration } from '@bm/platform';

const TRIGGER = `SELECT pg_get_triggerdef(t.oid) AS def FROM pg_trigger t
  WHERE t.tgname = 'inbound_events_wake' AND t.tgrelid = 'ingress.inbound_events'::regclass`;

/**
 * The splitter's wake trigger fires for rows it has work in alone: a body split on receipt is stored with its
 * outcome (receive-webhook), and waking the splitter for it would cost a NOTIFY on every receipt's commit plus an
 * empty pass. The platform's statement-level trigger becomes a row-level one on `pending` rows, its gate condition
 * kept as the platform wrote it (pg_notify collapses a transaction's repeated notifications into one).
 */
export const WakeOnPending1765300000000 = sqlMigration('WakeOnPending1765300000000', {
  up: [
    async (q: QueryRunner) => {
      const [row] = (await q.query(TRIGGER)) as Array<{ def: string }>;
      const statementLevel = ' FOR EACH STATEMENT WHEN (';
      if (!row?.def.includes(statementLevel)) {
        throw new Error(`unexpected wake trigger on ingress.inbound_events: ${row?.def ?? 'none'}`);
      }
      await q.query('DROP TRIGGER inbound_events_wake ON ingress.inbound_events');
      await q.query(row.def.replace(statementLevel, ` FOR EACH ROW WHEN (NEW.outcome = 'pending' AND `));
    },
  ],
  down: [
    (q) => dropWakeTrigger(q, 'ingress', 'inbound_events'),
    (q) => createWakeTrigger(q, 'ingress', 'inbound_events', 'ingress_inbound_events'),
  ],
});
