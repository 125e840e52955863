import { createHash, randomBytes } from 'node:crypto';
import { monotonicFactory } from 'ulidx';

const ulid = monotonicFactory();
// Process start in microseconds: ids stay unique across restarts and within a safe integer.
const numericBase = Date.now() * 1000;
let numericCounter = 0;

/** A message id shaped like the upstream's: `wamid.` and URL-safe base64, unique within the process. */
export function newMessageId(waId: string): string {
  const raw = Buffer.concat([Buffer.from([0x1c, 0x18, waId.length]), Buffer.from(`${waId}:${ulid()}`)]);
  return `wamid.${raw.toString('base64url')}`;
}

/** The Graph API's trace id: 27 characters, different on every error answer. */
export function newTraceId(): string {
  return randomBytes(20).toString('base64url').slice(0, 27);
}

/** A numeric object id like the Graph API's (templates, media, accounts). */
export function newNumericId(): string {
  numericCounter += 1;
  return String(numericBase + numericCounter);
}

/** The same conversation id for the same number, customer and category, as the upstream keeps one per window. */
export function conversationId(phoneNumberId: string, waId: string, category: string): string {
  return createHash('sha256').update(`${phoneNumberId}|${waId}|${category}`).digest('hex').slice(0, 32);
}

/** Digits only: `+1 650-555-1234` becomes `16505551234`. */
export function digitsOnly(value: string): string {
  return value.replace(/\D/g, '');
}
