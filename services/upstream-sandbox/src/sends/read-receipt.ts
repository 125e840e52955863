import type { SandboxDeps } from '../deps';
import { GraphError } from '../graph-errors';
import { appendBounded } from '../state';

/**
 * A read receipt (WIRE-2026.md, "Read receipts"): `{"messaging_product": "whatsapp", "status": "read",
 * "message_id": "<inbound wamid>"}` on the messages endpoint, optionally with a typing indicator. Recorded for
 * `GET /_sandbox/read-receipts`; the network answers `{"success": true}`.
 */
export function takeReadReceipt(
  deps: SandboxDeps,
  phoneNumberId: string,
  body: Record<string, unknown>,
  token: string | undefined,
): void {
  if (token === undefined) throw GraphError.of(190);
  if (body.messaging_product !== 'whatsapp')
    throw GraphError.of(100, 'The parameter messaging_product is required.');
  if (typeof body.message_id !== 'string' || body.message_id === '')
    throw GraphError.of(100, 'The parameter message_id is required.');
  appendBounded(deps.state, deps.state.readReceipts, {
    phone_number_id: phoneNumberId,
    message_id: body.message_id,
    typing_indicator: body.typing_indicator !== undefined,
    received_at: new Date().toISOString(),
  });
}
