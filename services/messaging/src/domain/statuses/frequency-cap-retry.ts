import type { MessagingDeps } from '../messaging-deps';
import type { Tx } from '../ports/unit-of-work.port';
import type { MessageLog } from '../ports/message-log.port';

export type FrequencyCapRetryDeps = Pick<MessagingDeps, 'messages' | 'config'>;

/** The upstream's error for a marketing message refused by the per-user frequency cap. */
const FREQUENCY_CAP = 131049;

/** Whether a failure is the frequency cap's, which a message may ask to be retried after (`auto_retry_on_frequency_cap`). */
export function isFrequencyCapped(errorCode: number | null | undefined): boolean {
  return errorCode === FREQUENCY_CAP;
}

/** One retry 26 h later (configurable) for a message that asked for it; a retry never retries again. */
export async function scheduleFrequencyCapRetry(
  deps: FrequencyCapRetryDeps,
  tx: Tx,
  failed: MessageLog,
): Promise<void> {
  if (!failed.autoRetryOnFrequencyCap || failed.retryCount > 0 || failed.retriedByMessageLogId !== null)
    return;
  const retry = await deps.messages.insert(tx, {
    tenantId: failed.tenantId,
    channelAccountId: failed.channelAccountId,
    toPhone: failed.toPhone,
    toUserId: failed.toUserId,
    messageType: failed.messageType,
    content: failed.content,
    templateCategory: failed.templateCategory,
    conversationCategory: failed.conversationCategory,
    status: 'scheduled',
    scheduledAt: new Date(Date.now() + deps.config.FREQUENCY_CAP_RETRY_DELAY_MS),
    autoRetryOnFrequencyCap: false,
    retryCount: 1,
    retryOfMessageLogId: failed.id,
    campaignId: failed.campaignId,
  });
  await deps.messages.linkRetry(tx, failed.id, retry.id);
}
