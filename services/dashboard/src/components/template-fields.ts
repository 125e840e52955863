import type { Template } from '../api/templates';

interface TemplateComponent {
  type: string;
  format?: string;
  text?: string;
}

export interface TemplateShape {
  /** Placeholders of a text header ({{1}}…), in order. */
  headerPlaceholders: number;
  /** IMAGE, VIDEO or DOCUMENT when the header needs media; null otherwise. */
  headerMedia: 'IMAGE' | 'VIDEO' | 'DOCUMENT' | null;
  bodyPlaceholders: number;
  bodyText: string;
}

const countPlaceholders = (text: string | undefined) => new Set(text?.match(/\{\{\s*\d+\s*\}\}/g) ?? []).size;

/** What a send of this template must fill in: placeholders of its header and body, header media. */
export function shapeOf(template: Template): TemplateShape {
  const components = template.components as TemplateComponent[];
  const header = components.find((c) => c.type.toUpperCase() === 'HEADER');
  const body = components.find((c) => c.type.toUpperCase() === 'BODY');
  const format = (header?.format ?? template.header_format ?? '').toUpperCase();
  return {
    headerPlaceholders: format === 'TEXT' ? countPlaceholders(header?.text) : 0,
    headerMedia: format === 'IMAGE' || format === 'VIDEO' || format === 'DOCUMENT' ? format : null,
    bodyPlaceholders: countPlaceholders(body?.text),
    bodyText: body?.text ?? '',
  };
}

/** The send's `components` in the upstream network's format, from the values typed into the form. */
export function componentsOf(
  shape: TemplateShape,
  values: { header: string[]; body: string[]; mediaUrl: string },
): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  if (shape.headerMedia) {
    const kind = shape.headerMedia.toLowerCase();
    out.push({ type: 'header', parameters: [{ type: kind, [kind]: { link: values.mediaUrl } }] });
  } else if (shape.headerPlaceholders > 0) {
    out.push({ type: 'header', parameters: values.header.map((text) => ({ type: 'text', text })) });
  }
  if (shape.bodyPlaceholders > 0) {
    out.push({ type: 'body', parameters: values.body.map((text) => ({ type: 'text', text })) });
  }
  return out;
}
