import { retryPolicyOf } from '@bm/contracts';
import { currentTraceparent, GroupCommit, type AmqpClient } from '@bm/platform';
import { applyAccountUpdate } from '../../domain/accounts/apply-account-update.use-case';
import { applyPhoneQuality } from '../../domain/accounts/apply-phone-quality.use-case';
import { applyTemplateStatus } from '../../domain/accounts/apply-template-status.use-case';
import { recordInboundMessage } from '../../domain/inbound/record-inbound-message.use-case';
import type { MessagingDeps } from '../../domain/messaging-deps';
import {
  applyStatusReports,
  type StatusReport,
  type StatusReportOutcome,
} from '../../domain/statuses/apply-status-report.use-case';
import { dispatch, type Handlers } from './dispatch';

/** A busy receipt's first retry comes after this, each next one this much later (at most 100 ms). */
const BUSY_RETRY_MS = 10;
/** Tries after which a busy receipt waits for its message's lock. */
const BUSY_TRIES = 5;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `messaging.inbound`: what the upstream reported, as webhook-ingress split it (receipts, customer messages, ...). */
export async function consumeInboundItems(amqp: AmqpClient, deps: MessagingDeps): Promise<void> {
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
}
