import { GraphError } from '../graph-errors';
import { countPlaceholders, findComponent, type Template } from './template';

export interface SendParameter {
  type: string;
  text?: unknown;
  [key: string]: unknown;
}

export interface SendComponent {
  type: string;
  parameters: SendParameter[];
}

/** The `template` object of a send, after its shape was checked. */
export interface TemplateSend {
  name: string;
  language: string;
  components: SendComponent[];
}

const MEDIA_FORMATS = new Set(['IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION']);
const TEXT_LIMITS: Record<string, number> = { header: 60, body: 1024 };

function sendComponent(send: TemplateSend, type: string): SendComponent | undefined {
  return send.components.find((c) => c.type.toLowerCase() === type);
}

function checkMediaHeader(format: string, header: SendComponent | undefined): void {
  const param = header?.parameters[0];
  const kind = format.toLowerCase();
  const media = param?.[kind] as { link?: unknown; id?: unknown } | undefined;
  const hasSource =
    kind === 'location' || (media !== undefined && (media.link !== undefined || media.id !== undefined));
  if (header?.parameters.length !== 1 || param?.type !== kind || !hasSource) {
    const received = param?.type.toUpperCase() ?? 'UNKNOWN';
    throw GraphError.of(132012, `header: Format mismatch, expected ${format}, received ${received}`);
  }
}

function checkCount(where: string, expected: number, component: SendComponent | undefined): void {
  const got = component?.parameters.length ?? 0;
  if (got !== expected) {
    throw GraphError.of(
      132000,
      `${where}: number of localizable_params (${got}) does not match the expected number of params (${expected})`,
    );
  }
  for (const param of component?.parameters ?? []) {
    if (param.type === 'text' && typeof param.text === 'string' && param.text.length > TEXT_LIMITS[where]) {
      throw GraphError.of(131009, `${where}: text parameter exceeds ${TEXT_LIMITS[where]} characters`);
    }
  }
}

/**
 * Throws the error the upstream answers when a template send does not fit the template:
 * 132001 missing or not approved, 132015 paused, 132016 disabled, 132012 wrong header media, 132000 wrong count.
 * Returns the template the send may use.
 */
export function checkTemplateSend(template: Template | undefined, send: TemplateSend): Template {
  if (template === undefined) {
    throw GraphError.of(132001, `template name (${send.name}) does not exist in ${send.language}`);
  }
  if (template.status === 'PAUSED') throw GraphError.of(132015, `template (${send.name}) is paused`);
  if (template.status === 'DISABLED') throw GraphError.of(132016, `template (${send.name}) is disabled`);
  if (template.status !== 'APPROVED') {
    throw GraphError.of(132001, `template name (${send.name}) is not approved in ${send.language}`);
  }
  const header = findComponent(template, 'HEADER');
  const format = header?.format?.toUpperCase();
  if (format !== undefined && MEDIA_FORMATS.has(format)) {
    checkMediaHeader(format, sendComponent(send, 'header'));
  } else {
    checkCount('header', countPlaceholders(header?.text), sendComponent(send, 'header'));
  }
  checkCount('body', countPlaceholders(findComponent(template, 'BODY')?.text), sendComponent(send, 'body'));
  return template;
}
