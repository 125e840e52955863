import type { MessageContentDto } from '@bm/contracts';
import type { MessageContent } from '../ports/message-log.port';

/** What a message said, as the API shows it: the stored content under its kind (see MessageContentDto). */
export function toMessageContentDto(content: MessageContent): MessageContentDto {
  if ('text' in content) return { type: 'text', text: content.text };
  if ('interactive' in content) return { type: 'interactive', interactive: content.interactive };
  return {
    type: 'template',
    name: content.name,
    language: content.language,
    components: Array.isArray(content.components) ? content.components : [],
  };
}

/** A template's parameters as one line of text (body texts in order, header media by link or id), for a CSV cell. */
export function templateParametersText(components: ReadonlyArray<Record<string, unknown>>): string {
  const parts: string[] = [];
  for (const component of components) {
    const parameters = Array.isArray(component.parameters) ? (component.parameters as unknown[]) : [];
    for (const p of parameters) {
      if (typeof p !== 'object' || p === null) continue;
      const param = p as Record<string, unknown>;
      const type = typeof param.type === 'string' ? param.type : '';
      const value = param[type];
      if (typeof value === 'string') parts.push(value);
      else if (typeof value === 'object' && value !== null) {
        const media = value as Record<string, unknown>;
        const ref = media.link ?? media.id;
        if (typeof ref === 'string') parts.push(`${type}:${ref}`);
      } else if (typeof param.payload === 'string') parts.push(param.payload);
    }
  }
  return parts.join(' | ');
}
