import { TIER_DAILY_LIMIT, type TemplateDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { Capacity } from '../../data-access/conversation-ledger.repository';
import type { MessagingDeps } from '../messaging-deps';
import { assertTemplateUsable } from '../templates/template-rules';
import { toTemplateDto } from '../templates/templates.use-case';

async function accountOf(deps: MessagingDeps, channelAccountId: string, tenantId: number) {
  const account = await deps.accounts.findActiveForTenant(channelAccountId, tenantId);
  if (!account) throw new AppError('NO_ACTIVE_ACCOUNT');
  return { account, dailyLimit: TIER_DAILY_LIMIT[account.tier] ?? null };
}

/** `{daily_limit, used_today, remaining}` of a sending number (remaining null when unlimited). */
export async function getCapacity(
  deps: MessagingDeps,
  tenantId: number,
  channelAccountId: string,
): Promise<Capacity> {
  const { account, dailyLimit } = await accountOf(deps, channelAccountId, tenantId);
  return deps.ledger.capacityOf(dailyLimit, await deps.ledger.used(deps.dataSource, account.id));
}

/** Holds capacity for a campaign; two concurrent reservations cannot both take the last slot. */
export async function reserveCapacity(
  deps: MessagingDeps,
  tenantId: number,
  channelAccountId: string,
  input: { reference: string; count: number; partial: boolean },
): Promise<{ granted: number; capacity: Capacity }> {
  const { account, dailyLimit } = await accountOf(deps, channelAccountId, tenantId);
  return deps.ledger.reserve(
    account.id,
    dailyLimit,
    input.reference,
    input.count,
    deps.config.CAPACITY_RESERVATION_TTL_MS,
    input.partial,
  );
}

export async function releaseCapacity(
  deps: MessagingDeps,
  tenantId: number,
  channelAccountId: string,
  reference: string,
): Promise<void> {
  const { account } = await accountOf(deps, channelAccountId, tenantId);
  await deps.ledger.release(account.id, reference);
}

/**
 * What a campaign needs to know of its template before it accepts a list: the template (checked like a single
 * send's: exists, not paused, approved) and the number's throughput, for the plan of a dry run.
 */
export async function lookupCampaignTemplate(
  deps: MessagingDeps,
  tenantId: number,
  channelAccountId: string,
  name: string,
  language: string | undefined,
): Promise<{ template: TemplateDto; throughput_per_second: number }> {
  const { account } = await accountOf(deps, channelAccountId, tenantId);
  const template = assertTemplateUsable(await deps.templates.find(account.id, name, language));
  return { template: toTemplateDto(template), throughput_per_second: account.throughputPerSecond };
}
