import type { CreateChannelAccountRequest } from '@bm/contracts';
import { AppError, newUlid } from '@bm/platform';
import type { ChannelAccount } from '../data-access/channel-account.repository';
import type { Template, TemplateInput } from '../data-access/template.repository';
import { UpstreamRefusal, type UpstreamTemplate } from '../data-access/upstream/cloud-api.client';
import type { EntityManager } from 'typeorm';
import type { MessagingDeps } from './messaging-deps';

/** The account as operators see it; the access token never leaves the service. */
export function toAccountDto(a: ChannelAccount, templates?: Template[]) {
  return {
    channel_account_id: a.id,
    tenant_id: a.tenantId,
    phone_number_id: a.phoneNumberId,
    waba_id: a.wabaId,
    display_phone_number: a.displayPhoneNumber,
    tier: a.tier,
    throughput_per_second: a.throughputPerSecond,
    active: a.active,
    created_at: a.createdAt.toISOString(),
    ...(templates ? { templates_synced: templates.length } : {}),
  };
}

/** Upstream template → what we store: header format and sample media come from the HEADER component. */
export function toTemplateInput(t: UpstreamTemplate): TemplateInput {
  const header = t.components.find((c) => typeof c.type === 'string' && c.type.toUpperCase() === 'HEADER');
  const format = typeof header?.format === 'string' ? header.format.toUpperCase() : null;
  const example = header?.example as { header_handle?: string[] } | undefined;
  return {
    upstreamId: String(t.id),
    name: t.name,
    language: t.language,
    status: t.status.toUpperCase(),
    category: t.category.toUpperCase(),
    headerFormat: format,
    headerSampleMediaUrl: example?.header_handle?.[0] ?? null,
    components: t.components,
  };
}

/**
 * What an upstream failure during setup means for the operator: the upstream refusing the credentials (401,
 * 403) or not knowing the WABA (4xx) is a bad request field, 422 naming it; the upstream failing or away is 502.
 */
function setupFailure(err: unknown, what: string): AppError {
  const status = err instanceof UpstreamRefusal ? err.status : null;
  const message = `The upstream network refused ${what}: ${(err as Error).message}`;
  if (status !== null && status >= 400 && status < 500) {
    const field = status === 401 || status === 403 ? 'access_token' : 'waba_id';
    return new AppError('VALIDATION_ERROR', 'The request is invalid', { errors: [{ field, message }] });
  }
  return new AppError('UPSTREAM_ERROR', message);
}

async function fetchTemplates(deps: MessagingDeps, wabaId: string, token: string): Promise<TemplateInput[]> {
  try {
    return (await deps.upstream.listTemplates(wabaId, token)).map(toTemplateInput);
  } catch (err) {
    throw setupFailure(err, 'the template listing');
  }
}

/**
 * Connects a sending number: fetches its templates (following paging) and subscribes the app to the WABA's
 * webhooks before anything is stored, so a wrong token or WABA leaves nothing behind.
 */
export async function connectChannelAccount(
  deps: MessagingDeps,
  tenantId: number,
  input: CreateChannelAccountRequest,
): Promise<ReturnType<typeof toAccountDto>> {
  if (await deps.accounts.findByPhoneNumberId(input.phone_number_id)) {
    throw new AppError('CONFLICT', ALREADY_CONNECTED);
  }
  const templates = await fetchTemplates(deps, input.waba_id, input.access_token);
  try {
    await deps.upstream.subscribeApp(input.waba_id, input.access_token);
  } catch (err) {
    throw setupFailure(err, 'the webhook subscription');
  }
  return deps.dataSource.transaction(async (tx) => {
    const account = await insertAccount(deps, tx, {
      id: newUlid(),
      tenantId,
      phoneNumberId: input.phone_number_id,
      wabaId: input.waba_id,
      displayPhoneNumber: input.display_phone_number.replace(/\D/g, ''),
      accessTokenSealed: deps.secrets.seal(input.access_token),
      tier: input.tier,
      throughputPerSecond: input.throughput_per_second ?? deps.config.DEFAULT_THROUGHPUT_PER_SECOND,
    });
    const stored = await deps.templates.upsertMany(tx, account.id, templates);
    return toAccountDto(account, stored);
  });
}

/** The insert, where a concurrent connect of the same number (past the check above) is a conflict too. */
async function insertAccount(
  deps: MessagingDeps,
  tx: EntityManager,
  account: Parameters<MessagingDeps['accounts']['insert']>[1],
): Promise<ChannelAccount> {
  try {
    return await deps.accounts.insert(tx, account);
  } catch (err) {
    const code =
      (err as { driverError?: { code?: string }; code?: string }).driverError?.code ??
      (err as { code?: string }).code;
    if (code === UNIQUE_VIOLATION) {
      throw new AppError('CONFLICT', ALREADY_CONNECTED);
    }
    throw err;
  }
}

const UNIQUE_VIOLATION = '23505';
const ALREADY_CONNECTED = 'A channel account with this phone_number_id is already connected';

/** Fetches the account's templates again and stores what the upstream says now. */
export async function syncTemplates(deps: MessagingDeps, channelAccountId: string): Promise<Template[]> {
  const account = await deps.accounts.findById(channelAccountId);
  if (!account) throw new AppError('CHANNEL_ACCOUNT_NOT_FOUND');
  const templates = await fetchTemplates(deps, account.wabaId, deps.secrets.open(account.accessTokenSealed));
  return deps.dataSource.transaction((tx) => deps.templates.upsertMany(tx, account.id, templates));
}
