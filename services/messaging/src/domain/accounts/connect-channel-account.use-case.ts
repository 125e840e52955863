import type { ChannelAccountDto, CreateChannelAccountRequest } from '@bm/contracts';
import { AppError, newUlid } from '@bm/platform';
import { UpstreamRefusal } from '../ports/upstream.port';
import type { MessagingDeps } from '../messaging-deps';
import type { Tx } from '../ports/unit-of-work.port';
import type { ChannelAccount } from '../ports/account.port';
import type { Template, TemplateInput } from '../ports/template.port';
import type { UpstreamTemplate } from '../ports/upstream.port';

type SetupDeps = Pick<MessagingDeps, 'upstream' | 'logger'>;
type ConnectDeps = SetupDeps & Pick<MessagingDeps, 'accounts' | 'templates' | 'secrets' | 'unitOfWork'>;
export type SyncTemplatesDeps = ConnectDeps;

/** The account as operators see it; the access token never leaves the service. */
export function toAccountDto(a: ChannelAccount, templates?: Template[]): ChannelAccountDto {
  return {
    channel_account_id: a.id,
    tenant_id: a.tenantId,
    phone_number_id: a.phoneNumberId,
    waba_id: a.wabaId,
    business_id: a.businessId,
    display_phone_number: a.displayPhoneNumber,
    tier: a.tier,
    throughput_per_second: a.throughputPerSecond,
    active: a.active,
    created_at: a.createdAt.toISOString(),
    ...(templates ? { templates_synced: templates.length } : {}),
  };
}

const upper = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value.toUpperCase() : null;

/**
 * Upstream template → what we store: header format and sample media come from the HEADER component. Read
 * leniently, as another implementation of the wire may leave fields out: no components is none, an unknown
 * status is PENDING (not sendable until the upstream says), an unknown category UTILITY; an entry without a name
 * or language cannot be sent and is skipped.
 */
export function toTemplateInput(t: Partial<UpstreamTemplate>): TemplateInput | null {
  if (typeof t.name !== 'string' || t.name === '' || typeof t.language !== 'string' || t.language === '') {
    return null;
  }
  const components = Array.isArray(t.components)
    ? t.components.filter((c) => c && typeof c === 'object')
    : [];
  const header = components.find((c) => upper(c.type) === 'HEADER');
  const example = header?.example as { header_handle?: unknown[] } | undefined;
  const sample = example?.header_handle?.[0];
  return {
    upstreamId: t.id === undefined || t.id === null ? null : String(t.id),
    name: t.name,
    language: t.language,
    status: upper(t.status) ?? 'PENDING',
    category: upper(t.category) ?? 'UTILITY',
    headerFormat: upper(header?.format),
    headerSampleMediaUrl: typeof sample === 'string' ? sample : null,
    components,
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

async function fetchTemplates(deps: SetupDeps, wabaId: string, token: string): Promise<TemplateInput[]> {
  try {
    return (await deps.upstream.listTemplates(wabaId, token))
      .map(toTemplateInput)
      .filter((t): t is TemplateInput => t !== null);
  } catch (err) {
    throw setupFailure(err, 'the template listing');
  }
}

/**
 * Subscribes the app to the WABA's webhooks (`POST /{waba_id}/subscribed_apps`), so the upstream calls our
 * inbound endpoint. A refused token is the operator's mistake (422 access_token). Any other failure (the upstream
 * failing, or an implementation of the wire without this call) does not stop the connection: sending works
 * without it, the answer says `webhooks_subscribed: false`, and a template sync tries again.
 */
async function subscribeWebhooks(deps: SetupDeps, wabaId: string, accessToken: string): Promise<boolean> {
  try {
    await deps.upstream.subscribeApp(wabaId, accessToken);
    return true;
  } catch (err) {
    if (err instanceof UpstreamRefusal && (err.status === 401 || err.status === 403)) {
      throw setupFailure(err, 'the webhook subscription');
    }
    deps.logger.warn('webhook subscription failed; inbound events need it (a template sync tries again)', {
      waba_id: wabaId,
      error: (err as Error).message,
    });
    return false;
  }
}

/**
 * Connects a sending number: fetches its templates (following paging) and subscribes the app to the WABA's
 * webhooks before anything is stored, so a wrong token or WABA leaves nothing behind.
 */
export async function connectChannelAccount(
  deps: ConnectDeps & Pick<MessagingDeps, 'config'>,
  tenantId: number,
  input: CreateChannelAccountRequest,
): Promise<ChannelAccountDto> {
  if (await deps.accounts.findByPhoneNumberId(input.phone_number_id)) {
    throw new AppError('CONFLICT', ALREADY_CONNECTED);
  }
  const templates = await fetchTemplates(deps, input.waba_id, input.access_token);
  const subscribed = await subscribeWebhooks(deps, input.waba_id, input.access_token);
  const businessId = input.business_id ?? input.waba_id;
  return deps.unitOfWork.inTransaction(async (tx) => {
    // The tier is the portfolio's: a number joining one that has numbers already takes its tier.
    const tier = (await deps.accounts.portfolioTier(tx, businessId)) ?? input.tier;
    const account = await insertAccount(deps, tx, {
      id: newUlid(),
      tenantId,
      phoneNumberId: input.phone_number_id,
      wabaId: input.waba_id,
      businessId,
      displayPhoneNumber: input.display_phone_number.replace(/\D/g, ''),
      accessTokenSealed: deps.secrets.seal(input.access_token),
      tier,
      throughputPerSecond: input.throughput_per_second ?? deps.config.DEFAULT_THROUGHPUT_PER_SECOND,
      webhooksSubscribed: subscribed,
    });
    const stored = await deps.templates.upsertMany(tx, account.id, templates);
    return { ...toAccountDto(account, stored), webhooks_subscribed: subscribed };
  });
}

/** The insert, where a concurrent connect of the same number (past the check above) is a conflict too. */
async function insertAccount(
  deps: Pick<MessagingDeps, 'accounts'>,
  tx: Tx,
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

/** Fetches the account's templates again and stores what the upstream says now; subscribes the webhooks again. */
export async function syncTemplates(
  deps: SyncTemplatesDeps,
  channelAccountId: string,
): Promise<{ templates: Template[]; webhooksSubscribed: boolean }> {
  const account = await deps.accounts.findById(channelAccountId);
  if (!account) throw new AppError('CHANNEL_ACCOUNT_NOT_FOUND');
  const token = deps.secrets.open(account.accessTokenSealed);
  const templates = await fetchTemplates(deps, account.wabaId, token);
  // Subscribing again is harmless upstream, and repairs a connection whose subscription had failed.
  const webhooksSubscribed = await subscribeWebhooks(deps, account.wabaId, token);
  await deps.accounts.setWebhooksSubscribed(account.id, webhooksSubscribed);
  const stored = await deps.unitOfWork.inTransaction((tx) =>
    deps.templates.upsertMany(tx, account.id, templates),
  );
  return { templates: stored, webhooksSubscribed };
}
