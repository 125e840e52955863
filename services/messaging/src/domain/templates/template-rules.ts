import {
  checkSendComponents,
  expectedParameters,
  type SendComponent,
  type TemplateComponentLike,
} from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { Template } from '../ports/template.port';

/** The checks of a template before its parameters: exists, not paused, approved. */
export function assertTemplateUsable(template: Template | undefined): Template {
  if (!template) throw new AppError('TEMPLATE_NOT_FOUND');
  if (template.status === 'PAUSED' || template.status === 'DISABLED') {
    throw new AppError('TEMPLATE_PAUSED', undefined, { status: template.status });
  }
  if (template.status !== 'APPROVED') {
    throw new AppError('TEMPLATE_NOT_APPROVED', undefined, { status: template.status });
  }
  return template;
}

/**
 * The template checks of a send, in the order a client fixes them: exists, approved, not paused, media header
 * present, parameter counts per component.
 */
export function assertTemplateSendable(
  found: Template | undefined,
  components: SendComponent[] | undefined,
): Template {
  const template = assertTemplateUsable(found);
  const spec = expectedParameters(template.components as unknown as TemplateComponentLike[]);
  const check = checkSendComponents(spec, components);
  if (check.headerMediaRequired && !check.headerMediaPresent) {
    throw new AppError('TEMPLATE_HEADER_MEDIA_REQUIRED', undefined, {
      header_format: template.headerFormat,
      header_sample_media_url: template.headerSampleMediaUrl,
    });
  }
  if (check.mismatches.length > 0) {
    throw new AppError('TEMPLATE_PARAMETER_MISMATCH', undefined, { mismatches: check.mismatches });
  }
  return template;
}
