import {
  retryPolicyOf,
  sendOfBatch,
  sendRequestedSchema,
  type SendRequestedCommand,
  type SendsRequestedCommand,
} from '@bm/contracts';
import { currentTraceparent, eachOfBatch, GroupCommit, validate, type AmqpClient } from '@bm/platform';
import type { MessagingDeps } from '../../domain/messaging-deps';
import {
  requestCampaignSends,
  type CampaignSendItem,
} from '../../domain/sending/request-campaign-send.use-case';
import { dispatch } from './dispatch';

/**
 * A batch of campaign sends: each item is checked as the single command it stands for and applied on its own (the
 * group commit writes the batch's items together, and one that fails fails alone; see eachOfBatch). The applied
 * ones are found and skipped when the batch is delivered again (one message log per recipient attempt).
 */
function requestSends(
  batch: SendsRequestedCommand,
  requestSend: (command: SendRequestedCommand) => Promise<void>,
): Promise<void> {
  return eachOfBatch(`sends of batch ${batch.event_id}`, batch.sends.length, (i) =>
    requestSend(validate(sendRequestedSchema, sendOfBatch(batch, i))),
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
