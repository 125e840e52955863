import type { SendRequestedCommand } from '@bm/contracts';
import { AppError } from '@bm/platform';
import { changeStatus } from './change-status';
import { enqueueDelivery } from './emit-event';
import type { MessagingDeps } from './messaging-deps';
import { assertTemplateSendable } from './template-rules';

/**
 * A campaign recipient's send: one message log per recipient (a redelivered command finds it and changes
 * nothing). A template that can no longer be sent fails the message, so the campaign still hears back.
 */
export async function requestCampaignSend(deps: MessagingDeps, command: SendRequestedCommand): Promise<void> {
  if (await deps.messages.findByCampaignRecipient(command.campaign_recipient_id)) return;
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
  await deps.dataSource.transaction(async (tx) => {
    const inserted: Array<{ id: string }> = await tx.query(
      `INSERT INTO messaging.message_logs
         (tenant_id, channel_account_id, to_phone, message_type, content, template_category, conversation_category,
          status, campaign_id, campaign_recipient_id)
       VALUES ($1, $2, $3, 'template', $4, $5, $6, 'queued', $7, $8)
       ON CONFLICT (campaign_recipient_id) WHERE campaign_recipient_id IS NOT NULL DO NOTHING RETURNING id`,
      [
        command.tenant_id,
        command.channel_account_id,
        command.phone,
        JSON.stringify({
          name: command.template_name,
          language: command.template_language,
          components: command.components,
        }),
        template?.category ?? null,
        template?.category ?? 'MARKETING',
        command.campaign_id,
        command.campaign_recipient_id,
      ],
    );
    if (inserted.length === 0) return;
    const id = Number(inserted[0].id);
    if (refusal) {
      const message = (await deps.messages.findById(tx, id))!;
      await changeStatus(deps, tx, message, {
        status: 'failed',
        errorMessage: `${refusal.code}: ${refusal.message}`,
      });
      return;
    }
    await enqueueDelivery(tx, id);
  });
}
