import { sqlMigration } from '@bm/platform';
import { COUNT_MESSAGE_STATUSES_DYNAMIC, countChangedStatuses } from './1764900000010-message-stats';

/**
 * The static counting function: this migration's, and without the daily upsert (`daily: false`)
 * MessageStatsFromHourly1767200000000's, whose down migration restores this one's.
 */
export const countMessageStatusesStatic = (options: { daily?: boolean } = {}) =>
  `CREATE OR REPLACE FUNCTION messaging.count_message_statuses() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          ${countChangedStatuses('SELECT tenant_id, status, error_message FROM new_rows', 'AS MATERIALIZED', options)};
        ELSE
          ${countChangedStatuses(
            `SELECT n.tenant_id, n.status, n.error_message FROM new_rows n JOIN old_rows o ON o.id = n.id
                           WHERE n.status IS DISTINCT FROM o.status`,
            'AS MATERIALIZED',
            options,
          )};
        END IF;
        RETURN NULL;
      END $$`;

/**
 * The message counters' trigger function with static statements, one per trigger kind: PL/pgSQL plans each once per
 * connection and keeps the plan, where the first version's EXECUTE planned its statement on every call. Measured
 * with pgbench (one insert and one status update a transaction): the counters cost 0.5 ms a transaction before and
 * 0.1-0.2 ms after. The counters, the triggers and what they count are unchanged.
 */
export const MessageStatsStatic1765300000000 = sqlMigration('MessageStatsStatic1765300000000', {
  up: [countMessageStatusesStatic()],
  down: [COUNT_MESSAGE_STATUSES_DYNAMIC],
});
