import type Joi from 'joi';
import {
  DELIVER_COMMAND,
  deliverCommandSchema,
  DOMAIN_EVENT_SCHEMAS,
  retryPolicyOf,
  sendOfBatch,
  sendRequestedSchema,
  type DomainEventKey,
  type DomainEventPayloads,
  type SendRequestedCommand,
  type SendsRequestedCommand,
} from '@bm/contracts';
import {
  AppError,
  currentTraceparent,
  GroupCommit,
  isTransientFailure,
  runInTrace,
  validate,
  type AmqpClient,
  type ConsumedMessage,
} from '@bm/platform';
import { applyAccountUpdate } from '../../domain/accounts/apply-account-update.use-case';
import { applyOptOutChange } from '../../domain/opt-outs/apply-opt-out-change.use-case';
import { applyPhoneQuality } from '../../domain/accounts/apply-phone-quality.use-case';
import { applyTemplateStatus } from '../../domain/accounts/apply-template-status.use-case';
import {
  applyStatusReports,
  type StatusReport,
  type StatusReportOutcome,
} from '../../domain/statuses/apply-status-report.use-case';
import { deliverMessages } from '../../domain/sending/deliver-message.use-case';
import type { MessagingDeps } from '../../domain/messaging-deps';
import { recordInboundMessage } from '../../domain/inbound/record-inbound-message.use-case';
import {
  requestCampaignSends,
  type CampaignSendItem,
} from '../../domain/sending/request-campaign-send.use-case';
import type { ThroughputLimiter } from '../../domain/sending/throughput-limiter';

/** A busy receipt's first retry comes after this, each next one this much later (at most 100 ms). */
const BUSY_RETRY_MS = 10;
/** Tries after which a busy receipt waits for its message's lock. */
const BUSY_TRIES = 5;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Handlers = { [K in DomainEventKey]?: (payload: DomainEventPayloads[K]) => Promise<unknown> };

/** Validates a consumed event with its contract schema and calls the use case for its routing key. */
function dispatch(handlers: Handlers) {
  return async (message: ConsumedMessage): Promise<void> => {
    const key = message.routingKey as DomainEventKey;
    const handler = handlers[key] as ((payload: unknown) => Promise<unknown>) | undefined;
    if (!handler) return;
    await handler(validate(DOMAIN_EVENT_SCHEMAS[key] as Joi.Schema, message.payload));
  };
}

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

/** Registers the messaging service's queues: deliveries, inbound items, campaign sends and opt-outs. */
export async function registerConsumers(
  amqp: AmqpClient,
  deps: MessagingDeps,
  limiter: ThroughputLimiter,
): Promise<void> {
  // Messages to deliver that arrive together (within 5 ms) go as one batch: two statements per batch instead of
  // two per message. At most SEND_CONCURRENCY are being delivered at once (a command may carry hundreds), in
  // batches of half that, so the next one gathers while the current one is on the wire.
  const deliveries = new GroupCommit<{ id: number; traceparent: string | undefined }>(
    (batch) => {
      // Each message of a batch keeps the trace of its own delivery.
      const traces = new Map(batch.map((m) => [m.id, m.traceparent]));
      return deliverMessages(deps, limiter, [...traces.keys()], (id) => traces.get(id));
    },
    {
      name: 'deliveries',
      maxBatch: Math.max(1, Math.floor(deps.config.SEND_CONCURRENCY / 2)),
      maxItemsInFlight: deps.config.SEND_CONCURRENCY,
      concurrency: Infinity,
      lingerMs: 5,
      onFailure: 'all',
    },
  );
  const deliver = (id: number) => deliveries.submit({ id, traceparent: currentTraceparent() });
  await amqp.consume(
    'messaging.deliver',
    [DELIVER_COMMAND],
    async (message) => {
      const command = validate(deliverCommandSchema, message.payload);
      if (command.message_log_id !== undefined) return deliver(command.message_log_id);
      await Promise.all(command.messages!.map((m) => runInTrace(m.traceparent, () => deliver(m.id))));
    },
    { ...retryPolicyOf('messaging.deliver'), prefetch: deps.config.SEND_CONCURRENCY },
  );
  // Receipts are applied in groups (one transaction, a few statements each); each keeps the trace of the message
  // that brought it, whichever group applies it.
  const statuses = new GroupCommit<StatusReport, StatusReportOutcome>(
    (reports) => applyStatusReports(deps, reports),
    { name: 'status receipts', logger: deps.logger },
  );
  // A receipt that overtook its send's answer finds the send recording its wamid (`busy`): it comes again a few
  // milliseconds later, and after BUSY_TRIES waits for the message's lock in its group like any other receipt.
  const applyStatus = async (report: StatusReport): Promise<void> => {
    for (let tries = 1; (await statuses.submit(report)) === 'busy'; tries += 1) {
      await sleep(Math.min(BUSY_RETRY_MS * tries, 100));
      if (tries >= BUSY_TRIES) report = { ...report, waitForAttempt: true };
    }
  };
  const inbound: Handlers = {
    'inbound.status': (item) => applyStatus({ item, traceparent: currentTraceparent() }),
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
  await amqp.consume(
    'messaging.opt-outs',
    ['opt_out.changed'],
    dispatch({ 'opt_out.changed': (event) => applyOptOutChange(deps, event) }),
    retryPolicyOf('messaging.opt-outs'),
  );
}
