import { inboundStatusSchema, retryPolicyOf, type InboundStatusItem } from '@bm/contracts';
import {
  currentTraceparent,
  eachOfBatch,
  validate,
  type AmqpClient,
  type ConsumedMessage,
} from '@bm/platform';
import { applyAccountUpdate } from '../../domain/accounts/apply-account-update.use-case';
import { applyPhoneQuality } from '../../domain/accounts/apply-phone-quality.use-case';
import { applyTemplateStatus } from '../../domain/accounts/apply-template-status.use-case';
import { recordInboundMessage } from '../../domain/inbound/record-inbound-message.use-case';
import type { MessagingDeps } from '../../domain/messaging-deps';
import { dispatch, type Handlers } from './dispatch';

/** `messaging.inbound`: what the upstream reported, as webhook-ingress split it (receipts, customer messages, ...). */
export async function consumeInboundItems(amqp: AmqpClient, deps: MessagingDeps): Promise<void> {
  const submitReport = (item: InboundStatusItem, message: ConsumedMessage) =>
    deps.statusIntake.submit({
      item,
      traceparent: currentTraceparent(),
      repeat: message.redelivered || message.attempt > 1,
    });
  const inbound: Handlers = {
    // Receipts are applied in batches (data-access/status-report-batches.ts), each with the trace that brought it.
    // One the broker delivered before, or a retry, may have been applied without its event sent: `repeat`.
    'inbound.status': (item, message) => submitReport(item, message),
    // The receipts of webhooks ingress received together, in one message: each checked and applied on its own.
    'inbound.statuses': (batch, message) =>
      eachOfBatch(`statuses of batch ${batch.event_id}`, batch.statuses.length, (i) =>
        submitReport(validate(inboundStatusSchema, batch.statuses[i]), message),
      ),
    'inbound.message': (item) => recordInboundMessage(deps, item),
    'inbound.template_status': (item) => applyTemplateStatus(deps, item),
    'inbound.phone_quality': (item) => applyPhoneQuality(deps, item),
    'inbound.account_update': (item) => applyAccountUpdate(deps, item),
  };
  // Receipts come in bursts of thousands: the prefetch lets the status batcher gather large batches.
  await amqp.consume('messaging.inbound', Object.keys(inbound), dispatch(inbound), {
    ...retryPolicyOf('messaging.inbound'),
    prefetch: 1000,
  });
}
