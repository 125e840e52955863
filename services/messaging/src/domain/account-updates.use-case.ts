import {
  MESSAGING_TIERS,
  TEMPLATE_STATUSES,
  type InboundAccountUpdateItem,
  type InboundPhoneQualityItem,
  type InboundTemplateStatusItem,
  type OptOutChangedEvent,
  type TemplateStatus,
} from '@bm/contracts';
import { emitEvent } from './emit-event';
import type { MessagingDeps } from './messaging-deps';

// The upstream's template events that are not statuses of their own.
const EVENT_TO_STATUS: Record<string, TemplateStatus> = { REINSTATED: 'APPROVED', FLAGGED: 'PAUSED' };

/** `message_template_status_update`: updates the template on every account of the WABA, emits the change. */
export async function applyTemplateStatus(
  deps: MessagingDeps,
  item: InboundTemplateStatusItem,
): Promise<void> {
  const event = item.event.toUpperCase();
  const status = EVENT_TO_STATUS[event] ?? (TEMPLATE_STATUSES as readonly string[]).find((s) => s === event);
  if (!status) return;
  for (const account of await deps.accounts.listByWaba(item.waba_id)) {
    await deps.dataSource.transaction(async (tx) => {
      const changed = await deps.templates.updateStatus(
        tx,
        account.id,
        item.name,
        item.language,
        status,
        item.category,
      );
      if (!changed || changed.previousStatus === status) return;
      await emitEvent(tx, 'template.status_changed', account.tenantId, {
        channel_account_id: account.id,
        template_id: changed.template.id,
        name: changed.template.name,
        language: changed.template.language,
        status,
        category: changed.template.category as never,
        // The upstream writes NONE when a decision has no reason: the event says null.
        reason: item.reason === null || item.reason.toUpperCase() === 'NONE' ? null : item.reason,
      });
    });
  }
}

/** `phone_number_quality_update`: the number's tier follows the upstream's current limit; the event is kept. */
export async function applyPhoneQuality(deps: MessagingDeps, item: InboundPhoneQualityItem): Promise<void> {
  const display = item.display_phone_number.replace(/\D/g, '');
  const accounts = (await deps.accounts.listByWaba(item.waba_id)).filter(
    (a) => a.displayPhoneNumber === display || a.phoneNumberId === item.phone_number_id,
  );
  const tier = MESSAGING_TIERS.find((t) => t === item.current_limit) ?? null;
  for (const account of accounts) {
    await deps.dataSource.transaction(async (tx) => {
      if (tier && tier !== account.tier) await deps.accounts.updateTier(tx, account.id, tier);
      await deps.accounts.setQualityEvent(tx, account.id, item.event);
      await emitEvent(tx, 'account.quality_event', account.tenantId, {
        channel_account_id: account.id,
        kind: 'phone_number_quality_update',
        details: { event: item.event, current_limit: item.current_limit, previous_tier: account.tier },
      });
    });
  }
}

/** `account_update`, `account_alerts` and the like: passed on to the client as `account.quality_event`. */
export async function applyAccountUpdate(deps: MessagingDeps, item: InboundAccountUpdateItem): Promise<void> {
  for (const account of await deps.accounts.listByWaba(item.waba_id)) {
    await deps.dataSource.transaction((tx) =>
      emitEvent(tx, 'account.quality_event', account.tenantId, {
        channel_account_id: account.id,
        kind: item.field,
        details: { event: item.event, ...item.details },
      }),
    );
  }
}

/**
 * Keeps the copy of the tenant's opt-outs that single MARKETING sends are checked against. The campaign service
 * sets it directly when a change commits (so a send right after sees it) and by its event (which cannot be lost);
 * the change's version decides when both arrive, in either order.
 */
export async function applyOptOutChange(
  deps: MessagingDeps,
  change: Pick<OptOutChangedEvent, 'tenant_id' | 'phone' | 'opted_out' | 'version'>,
): Promise<void> {
  await deps.dataSource.transaction((tx) =>
    deps.customers.setOptOut(tx, change.tenant_id, change.phone, change.opted_out, change.version),
  );
}
