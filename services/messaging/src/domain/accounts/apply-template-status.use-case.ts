import { TEMPLATE_STATUSES, type InboundTemplateStatusItem, type TemplateStatus } from '@bm/contracts';
import type { MessagingDeps } from '../messaging-deps';
import { templateEventFields } from '../templates/template.dto';
import type { Template, TemplateFlag, TemplateState } from '../ports/template.port';

/**
 * What an upstream template event does to the template: a status to take and whether the quality flag is set
 * (FLAGGED), cleared (approved again) or kept. FLAGGED means low quality and possibly a pause later, not a pause:
 * the template keeps its status and stays sendable until a later PAUSED or DISABLED.
 */
function templateChangeOf(
  event: string,
  reason: string | null,
  at: Date,
): { status?: TemplateStatus; flag?: TemplateFlag | null } | undefined {
  if (event === 'FLAGGED') return { flag: { reason, flaggedAt: at } };
  if (event === 'REINSTATED' || event === 'APPROVED') return { status: 'APPROVED', flag: null };
  const status = TEMPLATE_STATUSES.find((s) => s === event);
  return status && { status };
}

/** The template after a change; a repeated flag keeps the time it was first raised. */
function nextState(
  before: Template,
  change: { status?: TemplateStatus; flag?: TemplateFlag | null },
  category: string | null,
  reason: string | null,
): TemplateState {
  const repeated = change.flag && before.flag?.reason === change.flag.reason;
  const status = change.status ?? before.status;
  return {
    status,
    category: category ?? before.category,
    flag: change.flag === undefined || repeated ? before.flag : change.flag,
    // A rejection's reason stays while the template is REJECTED, e.g. when a repeated event gives none.
    rejectedReason:
      status !== 'REJECTED'
        ? null
        : change.status === 'REJECTED'
          ? (reason ?? before.rejectedReason)
          : before.rejectedReason,
  };
}

/**
 * `message_template_status_update`: updates the template on every account of the WABA (its language in either
 * spelling, `en-US` or `en_US`) and emits the change of its status or quality flag.
 */
export async function applyTemplateStatus(
  deps: Pick<MessagingDeps, 'accounts' | 'templates' | 'unitOfWork' | 'outbox'>,
  item: InboundTemplateStatusItem,
): Promise<void> {
  // The upstream writes NONE when a decision has no reason: the event says null.
  const reason = item.reason === null || item.reason.toUpperCase() === 'NONE' ? null : item.reason;
  const change = templateChangeOf(item.event.toUpperCase(), reason, new Date(item.occurred_at));
  if (!change) return;
  for (const account of await deps.accounts.listByWaba(item.waba_id)) {
    await deps.unitOfWork.inTransaction(async (tx) => {
      const before = await deps.templates.findForUpdate(tx, account.id, item.name, item.language);
      if (!before) return;
      const after = nextState(before, change, item.category, reason);
      await deps.templates.setState(tx, before.id, after);
      if (after.status === before.status && after.flag === before.flag) return;
      await deps.outbox.emit(
        tx,
        'template.status_changed',
        account.tenantId,
        templateEventFields({ ...before, ...after }, reason),
      );
    });
  }
}
