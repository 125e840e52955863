import {
  optOutIntent,
  paginationOf,
  type ListOptOutsQuery,
  type MessageReceivedEvent,
  type OptOutDeletedDto,
  type OptOutDto,
  type OptOutListDto,
  type OptOutSource,
} from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { EntityManager } from 'typeorm';
import type { OptOut, OptOutChange } from '../data-access/opt-out.repository';
import type { CampaignDeps } from './campaign-deps';
import { emitOptOutChanged } from './emit-event';

const toDto = (o: OptOut): OptOutDto => ({
  phone: o.phone,
  source: o.source,
  created_at: o.createdAt.toISOString(),
});

export async function listOptOuts(
  deps: CampaignDeps,
  tenantId: number,
  query: ListOptOutsQuery,
): Promise<OptOutListDto> {
  const { optOuts, total } = await deps.optOuts.page(tenantId, query.page, query.per_page, query.phone);
  return { opt_outs: optOuts.map(toDto), pagination: paginationOf(total, query.page, query.per_page) };
}

/**
 * Records a change made in `tx`: its version, and the opt_out.changed event committed with it. The change is
 * returned for `syncMessagingCopy` once the transaction has committed.
 */
async function recordChange(
  deps: CampaignDeps,
  tx: EntityManager,
  change: Omit<OptOutChange, 'version'>,
  source: OptOutSource,
): Promise<OptOutChange> {
  const versioned = { ...change, version: await deps.optOuts.nextVersion(tx) };
  await emitOptOutChanged(tx, versioned, source);
  return versioned;
}

/**
 * Tells messaging of a committed change at once, so a MARKETING send right after it is checked against it. Best
 * effort: the opt_out.changed event committed with the change brings messaging's copy there in any case, and
 * the version keeps whichever arrives second from undoing a newer change.
 */
async function syncMessagingCopy(deps: CampaignDeps, change: OptOutChange): Promise<void> {
  try {
    await deps.messaging.setOptOut(change);
  } catch (err) {
    deps.logger.warn('opt-out left to its event', {
      tenant_id: change.tenantId,
      error: (err as Error).message,
    });
  }
}

/** Adds a phone (201 when new); adding one already there answers it as it is, 200, and tells nobody. */
export async function addOptOut(
  deps: CampaignDeps,
  tenantId: number,
  phone: string,
  source: OptOutSource,
): Promise<{ created: boolean; optOut: OptOutDto }> {
  const { change, optOut } = await deps.dataSource.transaction(async (tx) => {
    const added = await deps.optOuts.add(tx, tenantId, phone, source);
    if (!added) return { change: null, optOut: (await deps.optOuts.find(tenantId, phone, tx))! };
    return {
      change: await recordChange(deps, tx, { tenantId, phone, optedOut: true }, source),
      optOut: added,
    };
  });
  if (change) await syncMessagingCopy(deps, change);
  return { created: change !== null, optOut: toDto(optOut) };
}

/** Removes a phone; 404 OPT_OUT_NOT_FOUND when it is not on the list. */
export async function removeOptOut(
  deps: CampaignDeps,
  tenantId: number,
  phone: string,
): Promise<OptOutDeletedDto> {
  const change = await deps.dataSource.transaction(async (tx) => {
    if (!(await deps.optOuts.remove(tx, tenantId, phone))) throw new AppError('OPT_OUT_NOT_FOUND');
    return recordChange(deps, tx, { tenantId, phone, optedOut: false }, 'api');
  });
  await syncMessagingCopy(deps, change);
  return { phone, deleted: true };
}

/**
 * A customer's STOP / UNSUBSCRIBE (typed, or the template's quick-reply button, whose text arrives as the
 * message text) adds an opt-out; START / SUBSCRIBE removes it. Anything else, and a repeat, changes nothing.
 */
export async function applyInboundKeyword(deps: CampaignDeps, event: MessageReceivedEvent): Promise<void> {
  const intent = optOutIntent(event.text);
  if (intent === null) return;
  const optedOut = intent === 'opt_out';
  const { tenant_id: tenantId, from: phone } = event;
  const change = await deps.dataSource.transaction(async (tx) => {
    const done = optedOut
      ? (await deps.optOuts.add(tx, tenantId, phone, 'keyword')) !== undefined
      : await deps.optOuts.remove(tx, tenantId, phone);
    return done ? recordChange(deps, tx, { tenantId, phone, optedOut }, 'keyword') : null;
  });
  if (change) await syncMessagingCopy(deps, change);
}
