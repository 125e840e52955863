import type { SendRequestedCommand } from '@bm/contracts';
import { AppError, currentTraceparent } from '@bm/platform';
import { changeStatus, type ChangeStatusDeps } from '../statuses/change-status';
import type { MessagingDeps } from '../messaging-deps';
import { assertTemplateSendable } from '../templates/template-rules';
import type { ChannelAccount } from '../ports/account.port';
import type { Template } from '../ports/template.port';
import { campaignSendKey, type CampaignRecipientRef } from '../ports/message-log.port';
import type { InsertOptions, NewMessageLog } from '../ports/message-log.port';
import { keyAddressOf } from '../customers/customer-address';

/** The recipient and attempt a command is for (no attempt from producers that predate the field). */
const recipientOf = (command: SendRequestedCommand): CampaignRecipientRef => ({
  id: command.campaign_recipient_id,
  attempt: command.campaign_recipient_attempt ?? null,
});

type CampaignSendDeps = ChangeStatusDeps &
  Pick<MessagingDeps, 'unitOfWork' | 'accounts' | 'templates' | 'reader' | 'customers'>;

/** A recipient's address (their phone, else the phone their user id is linked to, else the user id) and user id. */
async function recipientAddress(
  deps: Pick<MessagingDeps, 'customers'>,
  command: SendRequestedCommand,
): Promise<{ toPhone: string; toUserId: string | null }> {
  const userId = command.user_id ?? null;
  if (command.phone) return { toPhone: command.phone, toUserId: userId };
  return { toPhone: await keyAddressOf(deps, command.tenant_id, userId!), toUserId: userId };
}

/**
 * A campaign recipient's send: one message log per recipient (a redelivered command finds it and changes
 * nothing). A template that can no longer be sent fails the message, so the campaign still hears back.
 */
export async function requestCampaignSend(
  deps: CampaignSendDeps,
  command: SendRequestedCommand,
): Promise<void> {
  if (await deps.reader.findByCampaignRecipient(recipientOf(command))) return;
  const account = await deps.accounts.findActiveForTenant(command.channel_account_id, command.tenant_id);
  const template = account
    ? await deps.templates.find(account.id, command.template_name, command.template_language)
    : undefined;
  let refusal: AppError | undefined;
  try {
    if (!account) throw new AppError('NO_ACTIVE_ACCOUNT');
    assertTemplateSendable(template, command.components);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    refusal = err;
  }
  await deps.unitOfWork.inTransaction(async (tx) => {
    const id = await deps.messages.insertCampaignSend(tx, {
      tenantId: command.tenant_id,
      channelAccountId: command.channel_account_id,
      ...(await recipientAddress(deps, command)),
      content: {
        name: command.template_name,
        language: command.template_language,
        components: command.components,
      },
      templateCategory: template?.category ?? null,
      conversationCategory: template?.category ?? 'MARKETING',
      campaignId: command.campaign_id,
      campaignRecipientId: command.campaign_recipient_id,
      campaignRecipientAttempt: command.campaign_recipient_attempt ?? null,
      traceparent: currentTraceparent() ?? null,
    });
    if (id === undefined) return;
    if (refusal) {
      const message = (await deps.reader.findById(tx, id))!;
      await changeStatus(deps, tx, message, {
        status: 'failed',
        errorMessage: `${refusal.code}: ${refusal.message}`,
      });
      return;
    }
    await deps.outbox.deliver(tx, [{ id }]);
  });
}

/** A campaign send command and the trace it arrived with. */
export interface CampaignSendItem {
  command: SendRequestedCommand;
  traceparent?: string;
}

async function cached<T>(cache: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  let hit = cache.get(key);
  if (!hit) cache.set(key, (hit = load()));
  return hit;
}

/**
 * Many campaign recipients' sends at once (the consumer's group commit): the ones already recorded are skipped,
 * the account and template are read once per batch, the sendable ones become queued message logs with their
 * delivery commands in one statement. A refused one (account gone, template no longer sendable) takes the
 * one-by-one path, which records it failed. A batch that meets a concurrent insert of the same recipient fails
 * as a whole and is applied again one by one, where the existing message log is found.
 */
export async function requestCampaignSends(
  deps: CampaignSendDeps,
  items: readonly CampaignSendItem[],
): Promise<void> {
  if (items.length === 1) return requestCampaignSend(deps, items[0].command);
  const seen = await deps.reader.existingCampaignRecipients(items.map((i) => recipientOf(i.command)));
  const accounts = new Map<string, Promise<ChannelAccount | undefined>>();
  const templates = new Map<string, Promise<Template | undefined>>();
  const accepted: Array<{ message: NewMessageLog } & InsertOptions> = [];
  const refused: SendRequestedCommand[] = [];
  for (const { command, traceparent } of items) {
    const key = campaignSendKey(recipientOf(command));
    if (seen.has(key)) continue;
    seen.add(key);
    const account = await cached(accounts, `${command.tenant_id}:${command.channel_account_id}`, () =>
      deps.accounts.findActiveForTenant(command.channel_account_id, command.tenant_id),
    );
    const template = account
      ? await cached(templates, `${account.id}:${command.template_name}:${command.template_language}`, () =>
          deps.templates.find(account.id, command.template_name, command.template_language),
        )
      : undefined;
    if (!account || !template || !isSendable(template, command)) {
      refused.push(command);
      continue;
    }
    accepted.push({
      message: {
        tenantId: command.tenant_id,
        channelAccountId: command.channel_account_id,
        ...(await recipientAddress(deps, command)),
        messageType: 'template',
        content: {
          name: command.template_name,
          language: command.template_language,
          components: command.components as unknown as Array<Record<string, unknown>>,
        },
        templateCategory: template.category,
        conversationCategory: template.category,
        status: 'queued',
        scheduledAt: null,
        autoRetryOnFrequencyCap: false,
        campaignId: command.campaign_id,
        campaignRecipientId: command.campaign_recipient_id,
        campaignRecipientAttempt: command.campaign_recipient_attempt ?? null,
      },
      deliver: true,
      traceparent,
    });
  }
  if (accepted.length > 0) {
    await deps.unitOfWork.inTransaction((tx) => deps.messages.insertMany(tx, accepted));
  }
  for (const command of refused) await requestCampaignSend(deps, command);
}

function isSendable(template: Template, command: SendRequestedCommand): boolean {
  try {
    assertTemplateSendable(template, command.components);
    return true;
  } catch (err) {
    if (err instanceof AppError) return false;
    throw err;
  }
}
