import { queryRows } from '@bm/platform';
import type { EntityManager } from 'typeorm';
import type { ChannelAccount } from '../data-access/channel-account.repository';
import type { MessageLog } from '../data-access/message-log.repository';
import { describeFailure } from '../data-access/upstream/upstream-errors';
import { applyPendingReports } from './apply-status-report.use-case';
import { changeStatus } from './change-status';
import type { MessagingDeps } from './messaging-deps';
import type { ThroughputLimiter } from './throughput-limiter';

/** The upstream request body of a message log. */
export function upstreamBody(message: MessageLog): Record<string, unknown> {
  const base = { messaging_product: 'whatsapp', recipient_type: 'individual', to: message.toPhone };
  if ('text' in message.content)
    return { ...base, type: 'text', text: { preview_url: false, body: message.content.text } };
  const { name, language, components } = message.content;
  return {
    ...base,
    type: 'template',
    template: { name, language: { code: language }, ...(components.length > 0 ? { components } : {}) },
  };
}

/**
 * Claims a queued message for one attempt: the attempt is recorded (committed) before the upstream call, so a
 * worker that dies mid-call leaves a trace and the message is never handed over twice for one attempt.
 */
async function claimAttempt(tx: EntityManager, id: number): Promise<boolean> {
  const rows = await queryRows(
    tx,
    `UPDATE messaging.message_logs
        SET send_attempts = send_attempts + 1, attempt_started_at = now(), updated_at = now()
      WHERE id = $1 AND status = 'queued' AND attempt_started_at IS NULL
        AND (next_attempt_at IS NULL OR next_attempt_at <= now())
      RETURNING id`,
    [id],
  );
  return rows.length > 0;
}

/** Sends one queued message through the upstream adapter and records what came of it. */
export async function deliverMessage(
  deps: MessagingDeps,
  limiter: ThroughputLimiter,
  messageLogId: number,
): Promise<void> {
  const claimed = await deps.dataSource.transaction((tx) => claimAttempt(tx, messageLogId));
  // Not queued, already being sent, or waiting for its retry time: a duplicate command changes nothing.
  if (!claimed) return;
  const message = (await deps.messages.findById(deps.dataSource, messageLogId))!;
  const account = (await deps.accounts.findById(message.channelAccountId))!;
  await limiter.acquire(account.id, account.throughputPerSecond);
  const result = await deps.upstream.sendMessage(
    account.phoneNumberId,
    deps.secrets.open(account.accessTokenSealed),
    upstreamBody(message),
  );

  await deps.dataSource.transaction(async (tx) => {
    if (result.ok) {
      const sent = await changeStatus(deps, tx, message, {
        status: 'sent',
        providerMessageId: result.providerMessageId,
      });
      if (sent) {
        await openConversation(deps, tx, account, sent);
        await applyPendingReports(deps, tx, sent);
      }
      return;
    }
    if (result.retryable && message.sendAttempts < deps.config.SEND_MAX_ATTEMPTS) {
      const delayMs = deps.config.SEND_RETRY_BASE_MS * 2 ** (message.sendAttempts - 1);
      await tx.query(
        `UPDATE messaging.message_logs SET attempt_started_at = NULL, next_attempt_at = now() + $2 * interval '1 millisecond',
                error_code = $3, updated_at = now() WHERE id = $1 AND status = 'queued'`,
        [message.id, delayMs, result.code],
      );
      deps.logger.warn('upstream send will be retried', {
        message_log_id: message.id,
        code: result.code,
        attempt: message.sendAttempts,
      });
      return;
    }
    await changeStatus(deps, tx, message, {
      status: 'failed',
      errorCode: result.code,
      errorMessage: describeFailure(result.code, result.message),
    });
  });
}

/** A template to a customer outside an open service window opens a business-initiated conversation. */
async function openConversation(
  deps: MessagingDeps,
  tx: EntityManager,
  account: ChannelAccount,
  message: MessageLog,
): Promise<void> {
  if (message.messageType !== 'template') return;
  if (await deps.customers.isWindowOpen(tx, account.id, message.toPhone)) return;
  await deps.ledger.openIfNew(tx, account.id, message.toPhone, message.id, message.campaignId);
}
