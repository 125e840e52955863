import {
  buildSendComponents,
  expectedParameters,
  mergeTemplateValues,
  type CreateCampaignRequest,
  type HeaderMediaInput,
  type SendComponent,
  type TemplateDto,
} from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { CampaignDeps } from '../campaign-deps';
import type { Campaign } from '../ports/campaigns.port';

/** The template a campaign sends and the media its header needs, checked as a single send is. */
export interface CheckedTemplate {
  template: TemplateDto;
  headerMedia: HeaderMediaInput | null;
  throughputPerSecond: number;
}

function validationError(field: string, message: string): AppError {
  return new AppError('VALIDATION_ERROR', 'The request is invalid', { errors: [{ field, message }] });
}

/**
 * Template checks before anything is written: messaging answers NO_ACTIVE_ACCOUNT, TEMPLATE_NOT_FOUND,
 * TEMPLATE_PAUSED or TEMPLATE_NOT_APPROVED; here the media header and, when no recipient brings its own
 * variables, the number of `template_params` (a recipient whose merged values do not fit fails alone later).
 */
export async function checkCampaignTemplate(
  deps: Pick<CampaignDeps, 'messaging'>,
  tenantId: number,
  request: CreateCampaignRequest,
): Promise<CheckedTemplate> {
  const { template, throughput_per_second } = await deps.messaging.campaignTemplate(
    tenantId,
    request.channel_account_id,
    request.template_name,
    request.template_language,
  );
  const spec = expectedParameters(template.components);
  let headerMedia: HeaderMediaInput | null = null;
  if (spec.headerMedia) {
    if (request.header_media && request.header_media.type !== spec.headerMedia) {
      throw validationError(
        'header_media.type',
        `header_media.type must be ${spec.headerMedia} for this template`,
      );
    }
    headerMedia =
      request.header_media ??
      (template.header_sample_media_url
        ? { type: spec.headerMedia, link: template.header_sample_media_url }
        : null);
    if (!headerMedia) {
      throw new AppError('TEMPLATE_HEADER_MEDIA_REQUIRED', undefined, {
        header_format: template.header_format,
        header_sample_media_url: null,
      });
    }
  }
  const given = request.template_params?.length ?? 0;
  const perRecipient = request.recipients.some((r) => r.variables && Object.keys(r.variables).length > 0);
  if (given > spec.textPlaceholders || (!perRecipient && given !== spec.textPlaceholders)) {
    throw new AppError('TEMPLATE_PARAMETER_MISMATCH', undefined, {
      expected: spec.textPlaceholders,
      given,
      components: spec.components,
    });
  }
  return { template, headerMedia, throughputPerSecond: throughput_per_second };
}

/**
 * One recipient's send components: the campaign's `template_params` merged with the recipient's variables, or
 * why they do not fit the template (checked as the recipient is handed to messaging).
 */
export function recipientSendComponents(
  campaign: Pick<Campaign, 'templateComponents' | 'templateParams' | 'headerMedia'>,
  variables: Record<string, string>,
): { components: SendComponent[] } | { error: string } {
  const spec = expectedParameters(campaign.templateComponents);
  const values = mergeTemplateValues(campaign.templateParams, variables);
  if (values !== null && values.length === spec.textPlaceholders) {
    return { components: buildSendComponents(spec, values, campaign.headerMedia ?? undefined) };
  }
  return {
    error:
      `TEMPLATE_PARAMETER_MISMATCH: the template takes ${spec.textPlaceholders} values, ` +
      `template_params and variables give ${values === null ? 'a gap in' : values.length}`,
  };
}
