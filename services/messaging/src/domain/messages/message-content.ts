import type { MessageContentDto } from '@bm/contracts';
import type { MessageContent } from '../ports/message-log.port';

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * What a message said, as the API shows it: the stored content under its kind (see MessageContentDto). A field a
 * row lacks (a log written before the field existed) reads as empty rather than breaking the answer's shape.
 */
export function toMessageContentDto(content: MessageContent): MessageContentDto {
  const c = content as Partial<Record<string, unknown>>;
  if ('text' in content) return { type: 'text', text: str(c.text) };
  if ('interactive' in content) {
    const interactive = typeof c.interactive === 'object' && c.interactive !== null ? c.interactive : {};
    return { type: 'interactive', interactive: interactive as Record<string, unknown> };
  }
  return {
    type: 'template',
    name: str(c.name),
    language: str(c.language),
    components: Array.isArray(c.components)
      ? (c.components as unknown[]).filter(
          (x): x is Record<string, unknown> =>
            typeof x === 'object' && x !== null && typeof (x as { type?: unknown }).type === 'string',
        )
      : [],
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
