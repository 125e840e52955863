import type { Logger } from '@bm/platform';
import type { Customer, SendRecord, SandboxState } from '../state';
import { numberInfo } from '../state';
import { statusEnvelope, userPreferencesEnvelope, type StatusEvent } from './envelopes';
import type { Timers } from './timers';
import type { WebhookSender } from './webhook-sender';

export interface AcceptedSend {
  record: SendRecord;
  messageId: string;
  phoneNumberId: string;
  /** `recipient_id`: absent for a customer who shows only a username. */
  recipientId?: string;
  /** `recipient_user_id`: on the 2026 wire and on sends by user id. */
  recipientUserId?: string;
  customer: Customer;
  category: string;
  pricingType: string;
  wire2026: boolean;
  /** An audio message: `played` follows `read`. */
  played: boolean;
  conversationId: string;
  acceptedAt: number;
  /** A status-mode fault: reported as `failed` after `sent`. */
  failWith?: number;
  /** The failure is reported alone, without `sent`. */
  failOnly?: boolean;
  /** A `user_preferences` webhook (stop) follows the failed status. */
  preferencesStop?: boolean;
  /** The send's `biz_opaque_callback_data`, echoed in each status. */
  callbackData?: string;
}

interface Step {
  status: StatusEvent['status'];
  offsetMs: number;
}

const NORMAL: StatusEvent['status'][] = ['sent', 'delivered', 'read'];

/**
 * sent, delivered, read at the configured offsets (as many as given), and `played` after `read` (as far again
 * as read is after delivered) for a voice message; or sent, then failed at the second offset; or, for a failure
 * where nothing went out, failed alone at the second offset.
 */
function plan(delays: number[], send: AcceptedSend): Step[] {
  if (delays.length === 0) return [];
  const failedAt = delays[1] ?? delays[0];
  if (send.failWith !== undefined) {
    if (send.failOnly) return [{ status: 'failed', offsetMs: failedAt }];
    return [
      { status: 'sent', offsetMs: delays[0] },
      { status: 'failed', offsetMs: failedAt },
    ];
  }
  const steps = delays.slice(0, NORMAL.length).map((offsetMs, i) => ({ status: NORMAL[i], offsetMs }));
  if (send.played && delays.length >= NORMAL.length) {
    steps.push({ status: 'played', offsetMs: delays[2] + Math.max(delays[2] - delays[1], 1) });
  }
  return steps;
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
    for (const step of plan(state.settings.statusDelaysMs, send)) {
      const wait = send.acceptedAt + step.offsetMs - Date.now();
      if (wait > 0 && !(await timers.sleep(wait))) return;
      if (timers.epoch !== epoch) return;
      const number = numberInfo(state, send.phoneNumberId);
      const payload = statusEnvelope(number, {
        messageId: send.messageId,
        status: step.status,
        recipientId: send.recipientId,
        recipientUserId: send.recipientUserId,
        category: send.category,
        pricingType: send.pricingType,
        wire2026: send.wire2026,
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
      if (step.status === 'failed' && send.preferencesStop) {
        const preference = userPreferencesEnvelope(number, {
          waId: send.recipientId,
          userId: send.customer.user_id,
          name: send.customer.username ?? 'Sandbox Customer',
          value: 'stop',
          detail: 'User requested to stop marketing messages',
        });
        if (timers.epoch !== epoch) return;
        await webhooks.deliver('user_preferences', target, preference);
      }
    }
  } catch (err) {
    logger.error('status report failed', { message_id: send.messageId, error: (err as Error).message });
  }
}
