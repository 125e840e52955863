/** One send attempt of a message log: its id and the attempt number the claim gave it. */
export interface SendAttemptId {
  messageLogId: number;
  attempt: number;
}

// `bm1:` marks our own data (another sender on the same WABA may use the field too) and its format's version.
const FORMAT = /^bm1:(\d{1,18}):(\d{1,6})$/;

/**
 * The `biz_opaque_callback_data` of a send attempt. The upstream echoes it in every status report of the
 * message, which is how a report is tied to a send whose answer (and so whose wamid) never arrived.
 */
export function callbackDataOf(message: { id: number; sendAttempts: number }): string {
  return `bm1:${message.id}:${message.sendAttempts}`;
}

/** The send attempt a status report names, or undefined when it carries no callback data of ours. */
export function attemptOf(callbackData: string | null | undefined): SendAttemptId | undefined {
  const match = FORMAT.exec(callbackData ?? '');
  if (!match) return undefined;
  return { messageLogId: Number(match[1]), attempt: Number(match[2]) };
}
