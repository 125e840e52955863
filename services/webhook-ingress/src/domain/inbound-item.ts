import type { DomainEventPayloads, InboundRoutingKey, InboundSkippedPart } from '@bm/contracts';

/** One thing the upstream reported, ready for the outbox once its tenant is known. */
export type SplitItem = {
  [K in InboundRoutingKey]: {
    routingKey: K;
    /** What makes a redelivered or repeated report the same item. */
    dedupeKey: string;
    /** Where in the body it came from, for the audit view. */
    path: string;
    payload: DomainEventPayloads[K];
  };
}[InboundRoutingKey];

/** A part of the body that could not become an item; kept visible in the audit view. */
export type SkippedPart = InboundSkippedPart;

export interface SplitResult {
  items: SplitItem[];
  skipped: SkippedPart[];
}

/** Unix seconds as the upstream writes them (string or number) to ISO 8601 UTC; the fallback when absent. */
export function isoFromUnixSeconds(value: unknown, fallback: Date): string {
  const seconds = typeof value === 'string' && /^\d{1,12}$/.test(value) ? Number(value) : value;
  if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0) {
    return new Date(seconds * 1000).toISOString();
  }
  return fallback.toISOString();
}

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const arrayOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A string field, or a number written as one (upstream ids are sometimes numeric); null otherwise. */
export function stringOf(v: unknown): string | null {
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}
