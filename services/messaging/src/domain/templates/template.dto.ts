import type { TemplateDto, TemplateFlagDto } from '@bm/contracts';
import type { Template, TemplateFlag } from '../ports/template.port';

export function templateFlagDto(flag: TemplateFlag | null): TemplateFlagDto | null {
  return flag && { reason: flag.reason, flagged_at: flag.flaggedAt.toISOString() };
}

export function toTemplateDto(t: Template): TemplateDto {
  return {
    id: t.id,
    channel_account_id: t.channelAccountId,
    name: t.name,
    language: t.language,
    status: t.status as TemplateDto['status'],
    category: t.category as TemplateDto['category'],
    header_format: t.headerFormat as TemplateDto['header_format'],
    header_sample_media_url: t.headerSampleMediaUrl,
    components: t.components as unknown as TemplateDto['components'],
    flag: templateFlagDto(t.flag),
    rejected_reason: t.rejectedReason,
  };
}

/** The fields of `template.submitted` and `template.status_changed` for a template as it stands now. */
export function templateEventFields(t: Template, reason: string | null) {
  const { id, channel_account_id, name, language, status, category, flag } = toTemplateDto(t);
  return { channel_account_id, template_id: id, name, language, status, category, reason, flag };
}
