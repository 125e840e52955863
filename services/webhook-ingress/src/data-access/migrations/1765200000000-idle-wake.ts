import { createOutboxWakeTrigger, createWakeTrigger, dropWakeTrigger, sqlMigration } from '@bm/platform';

/**
 * What lets an idle ingress sleep: the outbox relay and the splitter are woken by wake triggers on the outbox and
 * on the stored events (notifying only while the worker sleeps, so the webhook path pays no notification).
 */
export const IdleWake1765200000000 = sqlMigration('IdleWake1765200000000', {
  up: [
    (q) => createOutboxWakeTrigger(q, 'ingress'),
    (q) => createWakeTrigger(q, 'ingress', 'inbound_events', 'ingress_inbound_events'),
  ],
  down: [
    (q) => dropWakeTrigger(q, 'ingress', 'inbound_events'),
    (q) => dropWakeTrigger(q, 'ingress', 'outbox'),
  ],
});
