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
import type { OptOut } from '../data-access/opt-out.repository';
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
  const { optOuts, total } = await deps.optOuts.page(tenantId, query.page, query.per_page);
  return { opt_outs: optOuts.map(toDto), pagination: paginationOf(total, query.page, query.per_page) };
}

/** Adds a phone (201 when new); adding one already there answers it as it is, 200, and tells nobody. */
export async function addOptOut(
  deps: CampaignDeps,
  tenantId: number,
  phone: string,
  source: OptOutSource,
): Promise<{ created: boolean; optOut: OptOutDto }> {
  return deps.dataSource.transaction(async (tx) => {
    const added = await deps.optOuts.add(tx, tenantId, phone, source);
    if (added) {
      await emitOptOutChanged(tx, tenantId, phone, true, source);
      return { created: true, optOut: toDto(added) };
    }
    return { created: false, optOut: toDto((await deps.optOuts.find(tenantId, phone, tx))!) };
  });
}

/** Removes a phone; 404 OPT_OUT_NOT_FOUND when it is not on the list. */
export async function removeOptOut(
  deps: CampaignDeps,
  tenantId: number,
  phone: string,
): Promise<OptOutDeletedDto> {
  await deps.dataSource.transaction(async (tx) => {
    if (!(await deps.optOuts.remove(tx, tenantId, phone))) throw new AppError('OPT_OUT_NOT_FOUND');
    await emitOptOutChanged(tx, tenantId, phone, false, 'api');
  });
  return { phone, deleted: true };
}

/**
 * A customer's STOP / UNSUBSCRIBE (typed, or the template's quick-reply button, whose text arrives as the
 * message text) adds an opt-out; START / SUBSCRIBE removes it. Anything else, and a repeat, changes nothing.
 */
export async function applyInboundKeyword(deps: CampaignDeps, event: MessageReceivedEvent): Promise<void> {
  const intent = optOutIntent(event.text);
  if (intent === null) return;
  await deps.dataSource.transaction(async (tx) => {
    if (intent === 'opt_out') {
      if (await deps.optOuts.add(tx, event.tenant_id, event.from, 'keyword')) {
        await emitOptOutChanged(tx, event.tenant_id, event.from, true, 'keyword');
      }
    } else if (await deps.optOuts.remove(tx, event.tenant_id, event.from)) {
      await emitOptOutChanged(tx, event.tenant_id, event.from, false, 'keyword');
    }
  });
}
