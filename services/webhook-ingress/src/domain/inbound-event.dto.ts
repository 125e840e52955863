import { AppError } from '@bm/platform';
import { ULID_PATTERN, type InboundEventDto } from '@bm/contracts';
import type { InboundEvent } from './inbound-event';

/** An audit log entry as operators see it. */
export function toInboundEventDto(e: InboundEvent): InboundEventDto {
  return {
    event_id: e.id,
    received_at: e.receivedAt.toISOString(),
    outcome: e.outcome,
    body_sha256: e.bodySha256,
    body_bytes: e.bodyBytes,
    signed_with: e.signedWith,
    item_count: e.itemCount,
    published_count: e.publishedCount,
    duplicate_count: e.duplicateCount,
    unroutable_count: e.unroutableCount,
    skipped_count: e.skippedCount,
    unroutable_phone_number_ids: e.unroutablePhoneNumberIds,
    attempts: e.attempts,
    last_error: e.lastError,
    processed_at: e.processedAt?.toISOString() ?? null,
  };
}

/** A path id that is not a ULID names no event. */
export function inboundEventIdOf(raw: string): string {
  if (!ULID_PATTERN.test(raw)) throw new AppError('NOT_FOUND', 'Inbound event not found');
  return raw;
}
