import type { LiveChatRequestedEvent, TemplateEvent, TemplateStatus } from '@bm/contracts';
import { newUlid } from '@bm/platform';
import type { IngressDeps } from './ingress-deps';

/**
 * Keeps a live-chat request messaging raised (a message no automation answered, or a flow's hand-off) as the
 * tenant's notification; its dedupe key makes a redelivered event change nothing.
 */
export async function recordLiveChatRequest(deps: IngressDeps, event: LiveChatRequestedEvent): Promise<void> {
  await deps.unitOfWork.transaction((tx) =>
    deps.notifications.insertMany(tx, [
      {
        id: newUlid(),
        tenantId: event.tenant_id,
        type: 'live_chat_request',
        dedupeKey: event.dedupe_key,
        channelAccountId: event.channel_account_id,
        phoneNumberId: event.phone_number_id,
        customerPhone: event.customer_phone,
        customerUserId: event.customer_user_id ?? null,
        customerName: event.customer_name,
        messageId: event.message_id,
        text: event.text,
        conversationId: event.conversation_id ?? null,
      },
    ]),
  );
}

/** The upstream's review decisions an admin waits for; pauses and other changes stay webhook events only. */
const REVIEW_DECISIONS: ReadonlySet<TemplateStatus> = new Set(['APPROVED', 'REJECTED']);

/**
 * Keeps the upstream's approval or rejection of a template (`template.status_changed` from messaging) as the
 * tenant's notification, once per event however often it is delivered.
 */
export async function recordTemplateReview(deps: IngressDeps, event: TemplateEvent): Promise<void> {
  if (!REVIEW_DECISIONS.has(event.status)) return;
  // A quality flag on an approved template is the upstream's warning, not a review: the status did not change.
  if (event.status === 'APPROVED' && event.flag !== null) return;
  await deps.unitOfWork.transaction((tx) =>
    deps.notifications.insertMany(tx, [
      {
        id: newUlid(),
        tenantId: event.tenant_id,
        type: 'template_review',
        dedupeKey: `template_review:${event.event_id}`,
        channelAccountId: event.channel_account_id,
        templateId: event.template_id,
        templateName: event.name,
        language: event.language,
        status: event.status,
        category: event.category,
        reason: event.reason,
      },
    ]),
  );
}
