import type { Client } from 'pg';

// What the lifecycle's CPU pays for, counted (issue 22): the rows each service's statements write
// (pg_stat_user_tables), the transactions (pg_stat_database), the messages published (the services' own
// `bm_amqp_messages_published_total`: by the outbox relays and by webhook-ingress before its 200) and the
// deliveries each queue's consumer settled (their `bm_amqp_messages_consumed_total`). The floor's operations for the same work are known by construction, so the
// CPU of PostgreSQL and RabbitMQ can be put per operation beside the floor's.

/** Row writes of one table over a window. */
export interface TableWrites {
  table: string;
  inserts: number;
  updates: number;
  /** Updates that wrote no index entry (HOT). */
  hotUpdates: number;
  deletes: number;
}

export interface Operations {
  tables: TableWrites[];
  commits: number;
  /** Messages published, each confirmed by the broker. */
  published: number;
  /** Deliveries settled, by queue (the stack's prefix left out). */
  deliveries: Array<{ queue: string; settled: number }>;
}

/** What the services' metrics say the broker did so far: messages published, deliveries settled by queue. */
export interface BrokerCounts {
  published: number;
  deliveries: Map<string, number>;
}

interface Reading extends BrokerCounts {
  tables: Map<string, Omit<TableWrites, 'table'>>;
  commits: number;
}

/** The floor's operations per lifecycle, by construction of its programs (bench/src/floors.ts). */
export const FLOOR_OPERATIONS = {
  // The send endpoint's insert, the receiver's three inserts, the drain worker's four updates.
  rowWrites: 8,
  // The send endpoint's confirm-publish; the drain's commands are queued before its CPU window opens.
  publishes: 1,
  deliveries: 4,
};

/** Adds a Prometheus text exposition's published messages and deliveries by queue to `into`. */
function addBrokerCounts(text: string, into: BrokerCounts): void {
  for (const line of text.split('\n')) {
    if (/^bm_amqp_messages_published_total[ {]/.test(line)) {
      into.published += Number(line.slice(line.lastIndexOf(' ') + 1)) || 0;
    }
    if (!line.startsWith('bm_amqp_messages_consumed_total{')) continue;
    const queue = /queue="([^"]*)"/.exec(line)?.[1];
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (queue !== undefined && Number.isFinite(value)) {
      into.deliveries.set(queue, (into.deliveries.get(queue) ?? 0) + value);
    }
  }
}

/**
 * The run database's row writes in `schemas`, and its commits, now. PostgreSQL publishes a backend's table counters
 * when its transaction ends (at most once a second), after 10 s idle, or when it exits: read once the stack has
 * stopped, or after such a pause.
 */
export async function readTables(db: Client, schemas: string[]): Promise<Omit<Reading, keyof BrokerCounts>> {
  const { rows } = await db.query<{ table: string; ins: string; upd: string; hot: string; del: string }>(
    `SELECT schemaname || '.' || relname AS table, n_tup_ins AS ins, n_tup_upd AS upd, n_tup_hot_upd AS hot,
            n_tup_del AS del
       FROM pg_stat_user_tables WHERE schemaname = ANY($1)`,
    [schemas],
  );
  const [{ commits }] = (
    await db.query<{ commits: string }>(
      'SELECT xact_commit AS commits FROM pg_stat_database WHERE datname = current_database()',
    )
  ).rows;
  return {
    tables: new Map(
      rows.map((r) => [
        r.table,
        { inserts: Number(r.ins), updates: Number(r.upd), hotUpdates: Number(r.hot), deletes: Number(r.del) },
      ]),
    ),
    commits: Number(commits),
  };
}

/** The messages published and the deliveries each queue's consumer settled so far, from every service's /metrics. */
export async function readBrokerCounts(metricsUrls: string[]): Promise<BrokerCounts> {
  const counts: BrokerCounts = { published: 0, deliveries: new Map() };
  for (const url of metricsUrls) {
    const res = await fetch(`${url}/metrics`);
    if (res.ok) addBrokerCounts(await res.text(), counts);
  }
  return counts;
}

/** What happened between two readings; tables and queues with nothing written or settled are left out. */
export function operationsBetween(before: Reading, after: Reading, queuePrefix: string): Operations {
  const tables: TableWrites[] = [];
  for (const [table, a] of after.tables) {
    const b = before.tables.get(table) ?? { inserts: 0, updates: 0, hotUpdates: 0, deletes: 0 };
    const w = {
      table,
      inserts: a.inserts - b.inserts,
      updates: a.updates - b.updates,
      hotUpdates: a.hotUpdates - b.hotUpdates,
      deletes: a.deletes - b.deletes,
    };
    if (w.inserts + w.updates + w.deletes > 0) tables.push(w);
  }
  const deliveries: Operations['deliveries'] = [];
  for (const [queue, n] of after.deliveries) {
    const settled = n - (before.deliveries.get(queue) ?? 0);
    const name = queue.startsWith(`${queuePrefix}.`) ? queue.slice(queuePrefix.length + 1) : queue;
    if (settled > 0) deliveries.push({ queue: name, settled });
  }
  tables.sort((x, y) => x.table.localeCompare(y.table));
  deliveries.sort((x, y) => x.queue.localeCompare(y.queue));
  return {
    tables,
    commits: after.commits - before.commits,
    published: after.published - before.published,
    deliveries,
  };
}

/** Row writes of a table: inserts, updates and deletes. */
export const rowWrites = (t: TableWrites) => t.inserts + t.updates + t.deletes;
