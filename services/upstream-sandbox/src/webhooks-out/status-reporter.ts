import type { Logger } from '@bm/platform';
import type { SendRecord, SandboxState } from '../state';
import { numberInfo } from '../state';
import { statusEnvelope, type StatusEvent } from './envelopes';
import type { Timers } from './timers';
import type { WebhookSender } from './webhook-sender';

export interface AcceptedSend {
  record: SendRecord;
  messageId: string;
  phoneNumberId: string;
  waId: string;
  category: string;
  conversationId: string;
  acceptedAt: number;
  /** A status-mode fault: reported as `failed` after `sent`. */
  failWith?: number;
  /** The send's `biz_opaque_callback_data`, echoed in each status. */
  callbackData?: string;
}

interface Step {
  status: StatusEvent['status'];
  offsetMs: number;
}

const NORMAL: StatusEvent['status'][] = ['sent', 'delivered', 'read'];

/** sent, delivered, read at the configured offsets (as many as given); or sent, then failed at the second. */
function plan(delays: number[], failWith: number | undefined): Step[] {
  if (delays.length === 0) return [];
  if (failWith !== undefined) {
    return [
      { status: 'sent', offsetMs: delays[0] },
      { status: 'failed', offsetMs: delays[1] ?? delays[0] },
    ];
  }
  return delays.slice(0, NORMAL.length).map((offsetMs, i) => ({ status: NORMAL[i], offsetMs }));
}

interface ReporterDeps {
  state: SandboxState;
  timers: Timers;
  webhooks: WebhookSender;
  logger: Logger;
}

/**
 * Reports one message's statuses in order: each waits for its offset and for the previous one's delivery
 * (retries included), so a receiver never sees `delivered` before `sent` from the sandbox.
 */
export async function reportStatuses(deps: ReporterDeps, send: AcceptedSend): Promise<void> {
  const { state, timers, webhooks, logger } = deps;
  const epoch = timers.epoch;
  try {
    for (const step of plan(state.settings.statusDelaysMs, send.failWith)) {
      const wait = send.acceptedAt + step.offsetMs - Date.now();
      if (wait > 0 && !(await timers.sleep(wait))) return;
      if (timers.epoch !== epoch) return;
      const number = numberInfo(state, send.phoneNumberId);
      const payload = statusEnvelope(number, {
        messageId: send.messageId,
        status: step.status,
        recipientId: send.waId,
        category: send.category,
        conversationId: send.conversationId,
        errorCode: send.failWith,
        callbackData: send.callbackData,
      });
      const target = {
        url: number.webhook_url ?? state.settings.webhookUrl,
        secret: state.settings.appSecret,
      };
      await webhooks.deliver(`status.${step.status}`, target, payload);
      send.record.statuses.push(step.status);
    }
  } catch (err) {
    logger.error('status report failed', { message_id: send.messageId, error: (err as Error).message });
  }
}
