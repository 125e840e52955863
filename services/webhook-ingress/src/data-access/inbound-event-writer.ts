import type { DataSource } from 'typeorm';
import type { NewInboundEvent } from './inbound-event.repository';

interface Pending {
  event: NewInboundEvent;
  bytes: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

const MAX_ROWS = 200;
// Bodies reach 3 MB: a statement carries a few of those at most.
const MAX_BYTES = 8 * 1024 * 1024;
const MAX_IN_FLIGHT = 2;

const INSERT = `INSERT INTO ingress.inbound_events
  (id, request_id, body_sha256, body_bytes, raw_body, headers, signed_with)`;

/**
 * Group commit of the audit log: deliveries that arrive while earlier ones are on their way to PostgreSQL are
 * inserted together in one statement, so one commit (and WAL flush) serves many 200s. Alone, a delivery goes at
 * once. Each caller resolves only once its own row is committed; a batch that fails is retried row by row, so
 * one bad row cannot refuse the others.
 */
export class InboundEventWriter {
  private queue: Pending[] = [];
  private inFlight = 0;

  constructor(private readonly dataSource: DataSource) {}

  insert(event: NewInboundEvent): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ event, bytes: Buffer.byteLength(event.rawBody), resolve, reject });
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < MAX_IN_FLIGHT && this.queue.length > 0) {
      const batch = this.take();
      this.inFlight += 1;
      this.write(batch)
        .catch(() => undefined)
        .finally(() => {
          this.inFlight -= 1;
          this.flush();
        });
    }
  }

  /** The oldest waiting rows up to the row and byte bounds; always at least one. */
  private take(): Pending[] {
    let bytes = 0;
    let n = 0;
    while (n < this.queue.length && n < MAX_ROWS) {
      bytes += this.queue[n].bytes;
      if (n > 0 && bytes > MAX_BYTES) break;
      n += 1;
    }
    return this.queue.splice(0, n);
  }

  private async write(batch: Pending[]): Promise<void> {
    try {
      await this.insertMany(batch);
      for (const p of batch) p.resolve();
      return;
    } catch (err) {
      if (batch.length === 1) {
        batch[0].reject(err);
        return;
      }
    }
    await Promise.all(
      batch.map((p) =>
        this.insertMany([p]).then(
          () => p.resolve(),
          (err: unknown) => p.reject(err),
        ),
      ),
    );
  }

  private async insertMany(batch: Pending[]): Promise<void> {
    if (batch.length === 1) {
      const [{ event: e, bytes }] = batch;
      await this.dataSource.query(`${INSERT} VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)`, [
        e.id,
        e.requestId,
        e.bodySha256,
        bytes,
        e.rawBody,
        JSON.stringify(e.headers),
        e.signedWith,
      ]);
      return;
    }
    const column = <T>(f: (p: Pending) => T) => batch.map(f);
    await this.dataSource.query(
      `${INSERT} SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::jsonb[],
         $7::text[])`,
      [
        column((p) => p.event.id),
        column((p) => p.event.requestId),
        column((p) => p.event.bodySha256),
        column((p) => p.bytes),
        column((p) => p.event.rawBody),
        column((p) => JSON.stringify(p.event.headers)),
        column((p) => p.event.signedWith),
      ],
    );
  }
}
