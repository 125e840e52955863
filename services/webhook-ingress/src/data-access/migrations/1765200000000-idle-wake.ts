import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createOutboxWakeTrigger, createWakeTrigger, dropWakeTrigger } from '@bm/platform';

/**
 * What lets an idle ingress sleep: the outbox relay and the splitter are woken by wake triggers on the outbox and
 * on the stored events (notifying only while the worker sleeps, so the webhook path pays no notification).
 */
export class IdleWake1765200000000 implements MigrationInterface {
  name = 'IdleWake1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await createOutboxWakeTrigger(q, 'ingress');
    await createWakeTrigger(q, 'ingress', 'inbound_events', 'ingress_inbound_events');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropWakeTrigger(q, 'ingress', 'inbound_events');
    await dropWakeTrigger(q, 'ingress', 'outbox');
  }
}
