import type { MessagingDeps } from '../messaging-deps';
import type { Tx } from '../ports/unit-of-work.port';
import { changeStatus, type ChangeStatusDeps } from '../statuses/change-status';
import type { MessageLog } from '../ports/message-log.port';
import { needsServiceWindow, SERVICE_WINDOW_HOURS } from '../lifecycle/message-lifecycle';

/*
 * The customer service window (lifecycle/message-lifecycle.ts): a free-form text may reach a customer only within
 * SERVICE_WINDOW_HOURS of their last message (the window is kept by the customer store, opened by each inbound
 * message). An immediate text is checked in the statement that writes it (`requireServiceWindow`); a scheduled
 * one again when its time comes, here.
 */

/** A scheduled text whose window closed before its time came is failed; returns whether it was. */
export async function failIfWindowClosed(
  deps: ChangeStatusDeps & Pick<MessagingDeps, 'customers'>,
  tx: Tx,
  message: MessageLog,
): Promise<boolean> {
  if (
    !needsServiceWindow(message.messageType) ||
    (await deps.customers.isWindowOpen(tx, message.channelAccountId, message.toPhone))
  )
    return false;
  await changeStatus(deps, tx, message, {
    status: 'failed',
    errorMessage: `OUTSIDE_SERVICE_WINDOW: the customer's last message is older than ${SERVICE_WINDOW_HOURS} hours at the scheduled time`,
  });
  return true;
}
