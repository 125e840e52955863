import { sqlMigration } from '@bm/platform';

/*
 * The two functions on the hot path keep one generic plan per connection (force_generic_plan), made at their first
 * call, when `deliveries` may be nearly empty and, with autovacuum off or behind, never analyzed. Such a plan
 * scans: an anti join that hashes the whole table to find the few events already stored, an update that hashes
 * it to find a batch's deliveries by id. Every input of theirs is a batch of at most a few hundred rows and each
 * of their lookups has an index, so they are told to plan by index only: nested loops over index scans, whatever
 * the statistics say or do not say. (Only a scan no index serves would still run as a sequential scan.)
 */
const SIGNATURES = [
  `dispatcher.store_deliveries(text[], int[], text[], text[], text[], text[], text[], int, int, bigint, text)`,
  `dispatcher.record_attempts_and_claim(int, int, bigint, text, boolean, text[], text[], text[], bigint[], text[],
     timestamptz[], int[], int[], text[], text[])`,
];

export const PlansByIndex1767200000000 = sqlMigration('PlansByIndex1767200000000', {
  up: SIGNATURES.map(
    (f) =>
      `ALTER FUNCTION ${f} SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off`,
  ),
  down: SIGNATURES.map(
    (f) => `ALTER FUNCTION ${f} RESET enable_seqscan RESET enable_hashjoin RESET enable_mergejoin`,
  ),
});
