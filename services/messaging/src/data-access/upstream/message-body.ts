import type { MessageLog } from '../../domain/ports/message-log.port';

/**
 * The upstream request body of a message log. `callbackData` names the send attempt in every status report of
 * the message, should the answer never arrive.
 */
export function messageBody(message: MessageLog, callbackData: string): Record<string, unknown> {
  // A customer named by user id gets `recipient` instead of `to` (WIRE-2026.md).
  const base = {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    ...(message.toUserId ? { recipient: message.toUserId } : { to: message.toPhone }),
    biz_opaque_callback_data: callbackData,
  };
  if ('text' in message.content)
    return { ...base, type: 'text', text: { preview_url: false, body: message.content.text } };
  if ('interactive' in message.content)
    return { ...base, type: 'interactive', interactive: message.content.interactive };
  const { name, language, components } = message.content;
  return {
    ...base,
    type: 'template',
    template: { name, language: { code: language }, ...(components.length > 0 ? { components } : {}) },
  };
}
