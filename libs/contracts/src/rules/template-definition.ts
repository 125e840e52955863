import type { FieldError } from '../envelope';
import type { TemplateButton, TemplateComponent } from '../schemas/templates';

/*
 * The upstream's review rules for a new template, beyond the shape the joi schema checks: variables numbered
 * from {{1}} without gaps, a sample for every variable, no variable opening or closing the body, media headers
 * with a sample, buttons of each kind within the upstream's counts. Pure and without dependencies: the API
 * refuses a submission with these errors and the dashboard's template builder shows them as the user types.
 */

/** The upstream's limits on a template definition. */
export const TEMPLATE_LIMITS = {
  body: 1024,
  headerText: 60,
  footer: 60,
  buttonText: 25,
  buttons: 10,
  urlButtons: 2,
  phoneButtons: 1,
  copyCodeButtons: 1,
  copyCode: 15,
  headerVariables: 1,
} as const;

const ANY_PLACEHOLDER = /\{\{[^{}]*\}\}/g;
const NUMBERED = /^\{\{([1-9]\d*)\}\}$/;

/** The numbers of a text's `{{n}}` variables, each once, in the order they first appear. */
export function templateVariables(text: string | undefined): number[] {
  const seen: number[] = [];
  for (const match of text?.match(ANY_PLACEHOLDER) ?? []) {
    const n = NUMBERED.exec(match);
    if (n && !seen.includes(Number(n[1]))) seen.push(Number(n[1]));
  }
  return seen;
}

/** `{{...}}` that is not a numbered variable, e.g. `{{name}}` or `{{ 1 }}`. */
const malformed = (text: string | undefined) =>
  (text?.match(ANY_PLACEHOLDER) ?? []).filter((m) => !NUMBERED.test(m));

const upper = (value: unknown) => (typeof value === 'string' ? value.toUpperCase() : '');
const blank = (value: unknown) => typeof value !== 'string' || value.trim() === '';
const isWebUrl = (value: unknown) =>
  typeof value === 'string' && /^https?:\/\/[^\s/$.?#][^\s]*$/i.test(value);

function variableErrors(field: string, text: string | undefined, errors: FieldError[]): number {
  const bad = malformed(text);
  if (bad.length > 0) {
    errors.push({ field, message: `${bad[0]} is not a variable: write {{1}}, {{2}}… in order` });
  }
  const numbers = templateVariables(text);
  const gap = numbers
    .slice()
    .sort((a, b) => a - b)
    .findIndex((n, i) => n !== i + 1);
  if (gap >= 0) {
    errors.push({
      field,
      message: `variables must be numbered from {{1}} without gaps (found {{${numbers.join('}}, {{')}}})`,
    });
  }
  return numbers.length;
}

/** The samples `example[key]` must hold: `count` non-blank strings, in one row when `nested`. */
function sampleErrors(
  field: string,
  example: Record<string, unknown> | undefined,
  key: string,
  count: number,
  nested: boolean,
): FieldError[] {
  const raw = example?.[key];
  const row: unknown = nested && Array.isArray(raw) ? raw[0] : raw;
  const values = Array.isArray(row) ? row : [];
  if (values.length !== count || values.some(blank)) {
    return [
      { field: `${field}.example.${key}`, message: `give a sample for each of the ${count} variables` },
    ];
  }
  return [];
}

function headerErrors(field: string, c: TemplateComponent, errors: FieldError[]): void {
  const format = upper(c.format);
  if (format === 'TEXT') {
    if (/[\r\n]/.test(c.text ?? ''))
      errors.push({ field: `${field}.text`, message: 'a text header is one line' });
    const count = variableErrors(`${field}.text`, c.text, errors);
    if (count > TEMPLATE_LIMITS.headerVariables) {
      errors.push({ field: `${field}.text`, message: 'a text header may hold one variable, {{1}}' });
    } else if (count === 1) {
      errors.push(...sampleErrors(field, c.example, 'header_text', 1, false));
    }
  } else if (format === 'IMAGE' || format === 'VIDEO' || format === 'DOCUMENT') {
    const handle = (c.example?.header_handle as unknown[] | undefined)?.[0];
    if (!isWebUrl(handle)) {
      errors.push({
        field: `${field}.example.header_handle`,
        message: `a ${format.toLowerCase()} header needs a sample: the http(s) URL of the media`,
      });
    }
  }
}

function bodyErrors(field: string, c: TemplateComponent, errors: FieldError[]): void {
  const text = c.text ?? '';
  if (text.trim() === '') errors.push({ field: `${field}.text`, message: 'the body must not be blank' });
  const count = variableErrors(`${field}.text`, text, errors);
  const trimmed = text.trim();
  if (/^\{\{[^{}]*\}\}/.test(trimmed) || /\{\{[^{}]*\}\}$/.test(trimmed)) {
    errors.push({ field: `${field}.text`, message: 'the body may not start or end with a variable' });
  }
  if (count > 0) errors.push(...sampleErrors(field, c.example, 'body_text', count, true));
}

function buttonErrors(field: string, b: TemplateButton, errors: FieldError[]): void {
  const type = upper(b.type);
  if ((type === 'QUICK_REPLY' || type === 'URL' || type === 'PHONE_NUMBER') && blank(b.text)) {
    errors.push({ field: `${field}.text`, message: 'the button needs a text' });
  } else if (/\{\{[^{}]*\}\}/.test(b.text ?? '')) {
    errors.push({ field: `${field}.text`, message: "a button's text may not hold variables" });
  }
  if (type === 'URL') {
    if (!isWebUrl(b.url?.replace(/\{\{1\}\}$/, 'x'))) {
      errors.push({ field: `${field}.url`, message: 'the button needs an http(s) URL' });
      return;
    }
    const variables = b.url?.match(ANY_PLACEHOLDER) ?? [];
    if (variables.length > 1 || (variables.length === 1 && !b.url?.endsWith('{{1}}'))) {
      errors.push({ field: `${field}.url`, message: 'a URL may hold one variable, {{1}}, at its end' });
    } else if (variables.length === 1) {
      const sample = Array.isArray(b.example) ? b.example[0] : b.example;
      if (!isWebUrl(sample)) {
        errors.push({ field: `${field}.example`, message: 'give a sample URL for the variable' });
      }
    }
  } else if (type === 'PHONE_NUMBER') {
    if (!/^\+?[1-9]\d{6,18}$/.test(b.phone_number ?? '')) {
      errors.push({
        field: `${field}.phone_number`,
        message: 'the button needs a phone number, e.g. +15551234567',
      });
    }
  } else if (type === 'COPY_CODE') {
    const code = Array.isArray(b.example) ? b.example[0] : b.example;
    if (blank(code) || (code ?? '').length > TEMPLATE_LIMITS.copyCode) {
      errors.push({
        field: `${field}.example`,
        message: `the button needs a sample code of at most ${TEMPLATE_LIMITS.copyCode} characters`,
      });
    }
  }
}

function buttonsErrors(field: string, buttons: TemplateButton[], errors: FieldError[]): void {
  buttons.forEach((b, j) => buttonErrors(`${field}.buttons[${j}]`, b, errors));
  const count = (type: string) => buttons.filter((b) => upper(b.type) === type).length;
  const limits: Array<[string, number, string]> = [
    ['URL', TEMPLATE_LIMITS.urlButtons, 'URL buttons'],
    ['PHONE_NUMBER', TEMPLATE_LIMITS.phoneButtons, 'phone number button'],
    ['COPY_CODE', TEMPLATE_LIMITS.copyCodeButtons, 'copy code button'],
  ];
  for (const [type, max, what] of limits) {
    if (count(type) > max) errors.push({ field: `${field}.buttons`, message: `at most ${max} ${what}` });
  }
  // The upstream groups quick replies apart from the other buttons: one run of them, first or last.
  const kinds = buttons.map((b) => upper(b.type) === 'QUICK_REPLY');
  const runs = kinds.filter((k, i) => i === 0 || k !== kinds[i - 1]).length;
  if (runs > 2) {
    errors.push({
      field: `${field}.buttons`,
      message: 'quick replies must come together, before or after the other buttons',
    });
  }
  const texts = buttons.map((b) => b.text?.trim().toLowerCase()).filter((t): t is string => !!t);
  if (new Set(texts).size !== texts.length) {
    errors.push({ field: `${field}.buttons`, message: 'two buttons have the same text' });
  }
}

/**
 * The upstream's review rules a template's components break, each naming its field as a validation error of the
 * body does (`components[1].example.body_text`). Assumes the shape the joi schema checks.
 */
export function templateDefinitionErrors(components: TemplateComponent[]): FieldError[] {
  const errors: FieldError[] = [];
  components.forEach((c, i) => {
    const field = `components[${i}]`;
    switch (upper(c.type)) {
      case 'HEADER':
        headerErrors(field, c, errors);
        break;
      case 'BODY':
        bodyErrors(field, c, errors);
        break;
      case 'FOOTER':
        if (templateVariables(c.text).length > 0 || malformed(c.text).length > 0) {
          errors.push({ field: `${field}.text`, message: 'the footer may not hold variables' });
        }
        break;
      case 'BUTTONS':
        buttonsErrors(field, c.buttons ?? [], errors);
        break;
    }
  });
  return errors;
}
