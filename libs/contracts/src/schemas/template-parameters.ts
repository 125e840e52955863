import type { MediaType, SendComponent, SendParameter } from './send-components';

/*
 * Placeholder rules shared by single template sends (messaging) and campaigns: how many parameters a template
 * expects per component, whether a send supplies them, and how a campaign's flat value list becomes components.
 */

/** A template component as stored (upstream format); the type is compared in any case. */
export interface TemplateComponentLike {
  type: string;
  format?: string;
  text?: string;
  buttons?: ReadonlyArray<{ type: string; url?: string }>;
}

export type ParameterComponent = 'header' | 'body' | 'button';

export interface ComponentParameterCount {
  component: ParameterComponent;
  /** Button position in the template's BUTTONS list; only for buttons. */
  index?: number;
  count: number;
}

/** What a template expects of a send. */
export interface TemplateParameterSpec {
  /** Components with at least one parameter, in header, body, buttons order. */
  components: ComponentParameterCount[];
  /** The media kind a media header needs, or null when the header is text, location or absent. */
  headerMedia: MediaType | null;
  /** Text placeholders over all components, the length of a campaign's flat value list. */
  textPlaceholders: number;
}

export interface ParameterMismatch {
  component: ParameterComponent;
  index?: number;
  expected: number;
  given: number;
}

export interface ComponentCheck {
  mismatches: ParameterMismatch[];
  headerMediaRequired: boolean;
  headerMediaPresent: boolean;
}

const PLACEHOLDER = /\{\{\s*(\d+)\s*\}\}/g;

/**
 * Parameters a component text needs: its highest positional placeholder (`{{1}}`, `{{2}}`…). A repeated
 * placeholder needs one value, and parameters are positional, so the highest number is the count.
 */
export function countPlaceholders(text: string | null | undefined): number {
  if (!text) return 0;
  let highest = 0;
  for (const match of text.matchAll(PLACEHOLDER)) highest = Math.max(highest, Number(match[1]));
  return highest;
}

const MEDIA_FORMATS: Record<string, MediaType> = { IMAGE: 'image', VIDEO: 'video', DOCUMENT: 'document' };

/** The parameters a template expects, per component. Only URL buttons take text placeholders. */
export function expectedParameters(template: readonly TemplateComponentLike[]): TemplateParameterSpec {
  const header = template.find((c) => c.type.toUpperCase() === 'HEADER');
  const body = template.find((c) => c.type.toUpperCase() === 'BODY');
  const buttons = template.find((c) => c.type.toUpperCase() === 'BUTTONS')?.buttons ?? [];
  const headerMedia = MEDIA_FORMATS[header?.format?.toUpperCase() ?? ''] ?? null;
  const headerText = header?.format?.toUpperCase() === 'TEXT' ? countPlaceholders(header.text) : 0;
  const components: ComponentParameterCount[] = [];
  if (headerMedia) components.push({ component: 'header', count: 1 });
  else if (headerText > 0) components.push({ component: 'header', count: headerText });
  const bodyCount = countPlaceholders(body?.text);
  if (bodyCount > 0) components.push({ component: 'body', count: bodyCount });
  let buttonTexts = 0;
  buttons.forEach((button, index) => {
    const count = button.type.toUpperCase() === 'URL' ? countPlaceholders(button.url) : 0;
    buttonTexts += count;
    if (count > 0) components.push({ component: 'button', index, count });
  });
  return { components, headerMedia, textPlaceholders: headerText + bodyCount + buttonTexts };
}

function keyOf(component: ParameterComponent, index?: number): string {
  return index === undefined ? component : `${component}:${index}`;
}

function hasMedia(parameter: SendParameter, kind: MediaType): boolean {
  const media = parameter.type.toLowerCase() === kind ? parameter[kind] : undefined;
  return Boolean(media?.link ?? media?.id);
}

/**
 * Compares a send's components with a template's expectations. Check `headerMediaRequired && !headerMediaPresent`
 * first (TEMPLATE_HEADER_MEDIA_REQUIRED), then `mismatches` (TEMPLATE_PARAMETER_MISMATCH). Quick-reply payloads
 * fill no placeholder and are not counted.
 */
export function checkSendComponents(
  spec: TemplateParameterSpec,
  given: readonly SendComponent[] | undefined,
): ComponentCheck {
  const givenCounts = new Map<string, ParameterMismatch>();
  let headerMediaPresent = false;
  for (const component of given ?? []) {
    const type = component.type.toLowerCase() as ParameterComponent;
    if (type === 'button' && component.sub_type?.toLowerCase() !== 'url') continue;
    const index = type === 'button' ? component.index : undefined;
    const entry = givenCounts.get(keyOf(type, index)) ?? { component: type, index, expected: 0, given: 0 };
    entry.given += component.parameters.length;
    givenCounts.set(keyOf(type, index), entry);
    const media = spec.headerMedia;
    if (type === 'header' && media)
      headerMediaPresent ||= component.parameters.some((p) => hasMedia(p, media));
  }
  for (const expected of spec.components) {
    const key = keyOf(expected.component, expected.index);
    const entry = givenCounts.get(key) ?? { ...expected, expected: 0, given: 0 };
    entry.expected = expected.count;
    givenCounts.set(key, entry);
  }
  const mismatches = [...givenCounts.values()]
    .filter((m) => m.expected !== m.given)
    .map(({ component, index, expected, given: count }) =>
      index === undefined
        ? { component, expected, given: count }
        : { component, index, expected, given: count },
    );
  return { mismatches, headerMediaRequired: spec.headerMedia !== null, headerMediaPresent };
}

/**
 * A campaign recipient's values by position: `variables["n"]` wins over `template_params[n-1]`. Null when a
 * position up to the highest one given has no value, so the caller can fail that recipient.
 */
export function mergeTemplateValues(
  templateParams: readonly string[] = [],
  variables: Readonly<Record<string, string>> = {},
): string[] | null {
  const positions = Object.keys(variables).map(Number);
  const length = Math.max(templateParams.length, ...positions, 0);
  const values: string[] = [];
  for (let position = 1; position <= length; position += 1) {
    const value = variables[String(position)] ?? templateParams[position - 1];
    if (value === undefined) return null;
    values.push(value);
  }
  return values;
}

/** Header media for a campaign send: a public link or an uploaded media id. */
export interface HeaderMedia {
  link?: string;
  id?: string;
}

function mediaParameter(kind: MediaType, media: HeaderMedia | undefined): SendParameter {
  const value = media?.link ? { link: media.link } : media?.id ? { id: media.id } : null;
  // The campaign falls back to the template's header_sample_media_url, so a missing value is a bug, not input.
  if (value === null) throw new Error(`a ${kind} header needs a link or an id`);
  return { type: kind, [kind]: value };
}

/**
 * Builds send components from a flat value list filled in component order (header text, body, URL buttons),
 * as CONTRACT.md orders campaign placeholders. The caller checks `values.length === spec.textPlaceholders`
 * first, and passes `headerMedia` when `spec.headerMedia` is set (throws otherwise).
 */
export function buildSendComponents(
  spec: TemplateParameterSpec,
  values: readonly string[],
  headerMedia?: HeaderMedia,
): SendComponent[] {
  let next = 0;
  const texts = (count: number): SendParameter[] =>
    values.slice(next, (next += count)).map((text) => ({ type: 'text', text }));
  return spec.components.map(({ component, index, count }): SendComponent => {
    if (component === 'header' && spec.headerMedia) {
      return { type: 'header', parameters: [mediaParameter(spec.headerMedia, headerMedia)] };
    }
    if (component === 'button') return { type: 'button', sub_type: 'url', index, parameters: texts(count) };
    return { type: component, parameters: texts(count) };
  });
}
