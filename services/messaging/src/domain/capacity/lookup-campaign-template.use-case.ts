import type { TemplateDto } from '@bm/contracts';
import type { MessagingDeps } from '../messaging-deps';
import { assertTemplateUsable } from '../templates/template-rules';
import { toTemplateDto } from '../templates/template.dto';
import { sendingAccountOf } from './sending-account';

/**
 * What a campaign needs to know of its template before it accepts a list: the template (checked like a single
 * send's: exists, not paused, approved) and the number's throughput, for the plan of a dry run.
 */
export async function lookupCampaignTemplate(
  deps: Pick<MessagingDeps, 'accounts' | 'templates'>,
  tenantId: number,
  channelAccountId: string,
  name: string,
  language: string | undefined,
): Promise<{ template: TemplateDto; throughput_per_second: number }> {
  const { account } = await sendingAccountOf(deps, channelAccountId, tenantId);
  const template = assertTemplateUsable(await deps.templates.find(account.id, name, language));
  return { template: toTemplateDto(template), throughput_per_second: account.throughputPerSecond };
}
