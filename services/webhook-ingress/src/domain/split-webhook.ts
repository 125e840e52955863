import type Joi from 'joi';
import { DOMAIN_EVENT_SCHEMAS } from '@bm/contracts';
import { arrayOf, isObject, stringOf, type SplitItem, type SplitResult } from './inbound-item';
import { splitAccountChange } from './split-account-change';
import { splitMessagesChange } from './split-messages-change';

/**
 * Splits a verified upstream body into items: entry[] × changes[] × (messages | statuses | account change).
 * Tolerant: a part it cannot read is reported as skipped, never fails the rest.
 */
export function splitWebhook(body: unknown, receivedAt: Date): SplitResult {
  const result: SplitResult = { items: [], skipped: [] };
  if (!isObject(body) || !Array.isArray(body.entry)) {
    result.skipped.push({ path: 'body', reason: 'no entry array' });
    return result;
  }
  arrayOf(body.entry).forEach((entry, e) => {
    const entryPath = `entry[${e}]`;
    const wabaId = isObject(entry) ? stringOf(entry.id) : null;
    if (!isObject(entry) || !wabaId) {
      result.skipped.push({ path: entryPath, reason: 'entry without id' });
      return;
    }
    arrayOf(entry.changes).forEach((change, c) => {
      const path = `${entryPath}.changes[${c}]`;
      const field = isObject(change) ? stringOf(change.field) : null;
      if (!isObject(change) || !field || !isObject(change.value)) {
        result.skipped.push({ path, reason: 'change without field or value' });
        return;
      }
      if (field === 'messages') {
        const split = splitMessagesChange(change.value, wabaId, receivedAt, `${path}.value`);
        result.items.push(...split.items);
        result.skipped.push(...split.skipped);
        return;
      }
      const item = splitAccountChange(field, change.value, wabaId, entry.time, receivedAt, path);
      if (typeof item === 'string') result.skipped.push({ path, reason: item });
      else result.items.push(item);
    });
  });
  return keepValid(result);
}

/**
 * About how many items a body holds, without splitting it: a change's statuses and messages, one for any other
 * change. Cheap enough to decide, before splitting, whether a body is split on receipt.
 */
export function roughItemCount(body: unknown): number {
  let count = 0;
  for (const entry of arrayOf(isObject(body) ? body.entry : undefined)) {
    for (const change of arrayOf(isObject(entry) ? entry.changes : undefined)) {
      const value = isObject(change) && isObject(change.value) ? change.value : {};
      count += Math.max(1, arrayOf(value.statuses).length + arrayOf(value.messages).length);
    }
  }
  return count;
}

/** The contract is the last word: an item its consumers would reject is skipped here, visibly, instead. */
function keepValid(result: SplitResult): SplitResult {
  const items: SplitItem[] = [];
  for (const item of result.items) {
    const schema = DOMAIN_EVENT_SCHEMAS[item.routingKey] as Joi.Schema;
    const { error } = schema.validate(item.payload);
    if (error) result.skipped.push({ path: item.path, reason: error.message });
    else items.push(item);
  }
  return { items, skipped: result.skipped };
}
