import {
  retryPolicyOf,
  sendOfBatch,
  sendRequestedSchema,
  type SendRequestedCommand,
  type SendsRequestedCommand,
} from '@bm/contracts';
import {
  AppError,
  currentTraceparent,
  GroupCommit,
  isTransientFailure,
  validate,
  type AmqpClient,
} from '@bm/platform';
import type { MessagingDeps } from '../../domain/messaging-deps';
import {
  requestCampaignSends,
  type CampaignSendItem,
} from '../../domain/sending/request-campaign-send.use-case';
import { dispatch } from './dispatch';

/**
 * A batch of campaign sends: each item is checked as the single command it stands for and applied on its own (the
 * group commit writes the batch's items together, and one that fails fails alone). When some item is invalid or
 * fails, the others are applied first and the batch then fails as a whole, to be delivered again by the retry
 * policy: the applied ones are found and skipped (one message log per recipient attempt), so only the bad ones
 * can end in the dead-letter queue, with the batch around them.
 */
async function requestSends(
  batch: SendsRequestedCommand,
  requestSend: (command: SendRequestedCommand) => Promise<void>,
): Promise<void> {
  const results = await Promise.allSettled(
    // async: an item that fails validation is a rejected promise among the others, not a throw that stops them.
    batch.sends.map(async (_, i) => requestSend(validate(sendRequestedSchema, sendOfBatch(batch, i)))),
  );
  const failures = results.flatMap((r, i) =>
    r.status === 'rejected' ? [{ index: i, reason: r.reason as unknown }] : [],
  );
  if (failures.length === 0) return;
  // An outage stays an outage (the consumer waits it out); otherwise the batch fails permanently, as its bad item
  // alone would, naming it.
  const transient = failures.find((f) => isTransientFailure(f.reason));
  if (transient) throw transient.reason;
  const first = failures[0];
  throw new AppError(
    (first.reason as { code?: string }).code === 'VALIDATION_ERROR' ? 'VALIDATION_ERROR' : 'INTERNAL_ERROR',
    `${failures.length} of ${batch.sends.length} sends of batch ${batch.event_id} failed (item ${first.index}: ${(first.reason as Error).message})`,
  );
}

/** `messaging.send-requests`: the recipients campaigns hand over, one by one or in batch commands. */
export async function consumeSendRequests(amqp: AmqpClient, deps: MessagingDeps): Promise<void> {
  // A campaign hands over recipients by the thousand: the prefetch lets the group commit write large batches.
  const campaignSends = new GroupCommit<CampaignSendItem>((items) => requestCampaignSends(deps, items), {
    name: 'campaign sends',
    logger: deps.logger,
  });
  const requestSend = (command: SendRequestedCommand) =>
    campaignSends.submit({ command, traceparent: currentTraceparent() });
  await amqp.consume(
    'messaging.send-requests',
    ['messaging.send_requested', 'messaging.sends_requested'],
    dispatch({
      'messaging.send_requested': requestSend,
      'messaging.sends_requested': (batch) => requestSends(batch, requestSend),
    }),
    { ...retryPolicyOf('messaging.send-requests'), prefetch: 500 },
  );
}
