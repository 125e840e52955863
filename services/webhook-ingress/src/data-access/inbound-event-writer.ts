import type { DataSource } from 'typeorm';
import type { NewInboundEvent } from './inbound-event.repository';

/** A delivery to store, with its body's size in bytes (stored, and bounding the statement's size). */
export interface SizedInboundEvent {
  event: NewInboundEvent;
  bytes: number;
}

const INSERT = `INSERT INTO ingress.inbound_events
  (id, request_id, body_sha256, body_bytes, raw_body, headers, signed_with)`;

/** Inserts the deliveries in one statement (a lone one with plain values). */
export async function insertInboundEvents(db: DataSource, batch: SizedInboundEvent[]): Promise<void> {
  if (batch.length === 1) {
    const [{ event: e, bytes }] = batch;
    await db.query(`${INSERT} VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)`, [
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
  const column = <T>(f: (p: SizedInboundEvent) => T) => batch.map(f);
  await db.query(
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
