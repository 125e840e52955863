import { sqlMigration } from '@bm/platform';

/**
 * Which worker holds each claim, and whether it is alive (issue 33, a worker that starts takes over at once): a
 * claim names its worker (`claimed_by`), and each worker keeps a lease it renews every few seconds. A claim whose
 * worker's lease has lapsed is taken over as soon as that is seen, instead of after the longest call and a grace:
 * one never handed over is sent again, one handed over as soon as its number's reports have come past it. The
 * column is nullable without a default (no table rewrite); claims of a worker that predates it have none and keep
 * the time-based rules.
 */
export const SendWorkerLeases1766300000000 = sqlMigration('SendWorkerLeases1766300000000', {
  up: [
    'ALTER TABLE messaging.message_logs ADD COLUMN claimed_by uuid',
    `CREATE TABLE messaging.send_workers (
       id uuid PRIMARY KEY,
       lease_until timestamptz NOT NULL
     )`,
  ],
  down: ['DROP TABLE messaging.send_workers', 'ALTER TABLE messaging.message_logs DROP COLUMN claimed_by'],
});
