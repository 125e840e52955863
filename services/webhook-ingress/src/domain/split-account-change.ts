import { createHash } from 'node:crypto';
import type {
  InboundAccountUpdateItem,
  InboundPhoneQualityItem,
  InboundTemplateStatusItem,
} from '@bm/contracts';
import { newUlid } from '@bm/platform';
import { isObject, isoFromUnixSeconds, stringOf, type Json, type SplitItem } from './inbound-item';

/** JSON with object keys sorted, so the same change hashes the same whatever its key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * An account-level change (no metadata, no id of its own): template status, number quality, account updates
 * and alerts. Its dedupe key hashes the WABA, the entry's time and the change, so a redelivery is the same item
 * while the same event at another time is a new one.
 */
export function splitAccountChange(
  field: string,
  value: Json,
  wabaId: string,
  entryTime: unknown,
  receivedAt: Date,
  path: string,
): SplitItem | string {
  const hash = createHash('sha256')
    .update(canonical({ waba_id: wabaId, time: entryTime ?? null, field, value }))
    .digest('hex');
  const base = {
    event_id: newUlid(),
    tenant_id: null,
    occurred_at: isoFromUnixSeconds(entryTime, receivedAt),
    received_at: receivedAt.toISOString(),
    waba_id: wabaId,
    phone_number_id: null,
  };
  const dedupeKey = `${field}:${hash}`;
  if (field === 'message_template_status_update') {
    const payload: InboundTemplateStatusItem = {
      ...base,
      template_id: stringOf(value.message_template_id) ?? '',
      name: stringOf(value.message_template_name) ?? '',
      language: stringOf(value.message_template_language) ?? '',
      event: stringOf(value.event) ?? '',
      reason: stringOf(value.reason),
      category: stringOf(value.message_template_category),
    };
    if (!payload.template_id || !payload.name || !payload.language || !payload.event) {
      return 'template status without id, name, language or event';
    }
    return { routingKey: 'inbound.template_status', dedupeKey, path, payload };
  }
  if (field === 'phone_number_quality_update') {
    const display = stringOf(value.display_phone_number);
    const event = stringOf(value.event);
    if (!display || !event) return 'phone quality update without display_phone_number or event';
    const payload: InboundPhoneQualityItem = {
      ...base,
      display_phone_number: display,
      event,
      current_limit: stringOf(value.current_limit),
    };
    return { routingKey: 'inbound.phone_quality', dedupeKey, path, payload };
  }
  const payload: InboundAccountUpdateItem = { ...base, field, event: stringOf(value.event), details: value };
  return { routingKey: 'inbound.account_update', dedupeKey, path, payload };
}
