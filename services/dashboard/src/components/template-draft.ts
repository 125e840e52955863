import { TEMPLATE_LIMITS, templateDefinitionErrors, templateVariables } from '@bm/contracts/rules';
import type { SubmitTemplateRequest } from '../api/templates';

export const HEADER_KINDS = ['NONE', 'TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT'] as const;
export type HeaderKind = (typeof HEADER_KINDS)[number];
export const BUTTON_TYPES = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER', 'COPY_CODE'] as const;
export type ButtonType = (typeof BUTTON_TYPES)[number];
export const BUTTON_LABELS: Record<ButtonType, string> = {
  QUICK_REPLY: 'Quick reply',
  URL: 'Visit website',
  PHONE_NUMBER: 'Call phone number',
  COPY_CODE: 'Copy code',
};

export interface ButtonDraft {
  type: ButtonType;
  text: string;
  url: string;
  /** The sample of the URL's {{1}}: a whole URL. */
  urlSample: string;
  phone: string;
  code: string;
}

/** What the template builder's form holds. */
export interface TemplateDraft {
  name: string;
  language: string;
  category: string;
  headerKind: HeaderKind;
  headerText: string;
  headerSample: string;
  /** The http(s) URL of the media header's sample (the API's `example.header_handle`). */
  headerMediaUrl: string;
  body: string;
  /** Samples by variable number: `bodySamples[n]` is the sample of {{n}}. */
  bodySamples: Record<number, string>;
  footer: string;
  buttons: ButtonDraft[];
}

export const emptyDraft = (): TemplateDraft => ({
  name: '',
  language: 'en_US',
  category: 'UTILITY',
  headerKind: 'NONE',
  headerText: '',
  headerSample: '',
  headerMediaUrl: '',
  body: '',
  bodySamples: {},
  footer: '',
  buttons: [],
});

export const newButton = (type: ButtonType): ButtonDraft => ({
  type,
  text: '',
  url: '',
  urlSample: '',
  phone: '',
  code: '',
});

/** The body's variables by number, in order: each gets a sample field. */
export const bodyVariables = (draft: TemplateDraft) => templateVariables(draft.body).sort((a, b) => a - b);

type Component = SubmitTemplateRequest['components'][number];
/** Which part of the form each component of the request came from, by its index. */
export type Sections = Array<'header' | 'body' | 'footer' | 'buttons'>;

function buttonOf(b: ButtonDraft): Record<string, unknown> {
  switch (b.type) {
    case 'QUICK_REPLY':
      return { type: b.type, text: b.text };
    case 'URL':
      return b.url.includes('{{')
        ? { type: b.type, text: b.text, url: b.url, example: [b.urlSample] }
        : { type: b.type, text: b.text, url: b.url };
    case 'PHONE_NUMBER':
      return { type: b.type, text: b.text, phone_number: b.phone };
    case 'COPY_CODE':
      return { type: b.type, example: b.code };
  }
}

/** The POST /api/v1/templates body the draft makes, with the form section of each component. */
export function requestOf(
  draft: TemplateDraft,
  channelAccountId: string,
): { request: SubmitTemplateRequest; sections: Sections } {
  const components: Component[] = [];
  const sections: Sections = [];
  const push = (section: Sections[number], c: Record<string, unknown>) => {
    components.push(c as Component);
    sections.push(section);
  };
  if (draft.headerKind === 'TEXT') {
    const hasVariable = templateVariables(draft.headerText).length > 0;
    push('header', {
      type: 'HEADER',
      format: 'TEXT',
      text: draft.headerText,
      ...(hasVariable ? { example: { header_text: [draft.headerSample] } } : {}),
    });
  } else if (draft.headerKind !== 'NONE') {
    push('header', {
      type: 'HEADER',
      format: draft.headerKind,
      example: { header_handle: [draft.headerMediaUrl] },
    });
  }
  const variables = bodyVariables(draft);
  push('body', {
    type: 'BODY',
    text: draft.body,
    ...(variables.length > 0
      ? { example: { body_text: [variables.map((n) => draft.bodySamples[n] ?? '')] } }
      : {}),
  });
  if (draft.footer !== '') push('footer', { type: 'FOOTER', text: draft.footer });
  if (draft.buttons.length > 0) push('buttons', { type: 'BUTTONS', buttons: draft.buttons.map(buttonOf) });
  return {
    request: {
      channel_account_id: channelAccountId,
      name: draft.name,
      language: draft.language,
      category: draft.category,
      components,
    },
    sections,
  };
}

/** Errors keyed by the form's field: `name`, `header.text`, `body.samples`, `buttons.0.url`, `form`... */
export type DraftErrors = Record<string, string>;

/** The form field an API error's field names (`components[1].example.body_text` is `body.samples`). */
export function formFieldOf(apiField: string, sections: Sections): string {
  const m = /^components\[(\d+)\](?:\.(.*))?$/.exec(apiField);
  if (!m) return ['name', 'language', 'category'].includes(apiField) ? apiField : 'form';
  const section = sections[Number(m[1])] ?? 'form';
  const rest = m[2] ?? '';
  if (section === 'buttons') {
    const b = /^buttons\[(\d+)\]\.?(.*)$/.exec(rest);
    if (!b) return 'buttons';
    const field = b[2] === 'phone_number' ? 'phone' : b[2] === '' ? 'text' : b[2];
    return `buttons.${b[1]}.${field}`;
  }
  if (rest === 'example.header_text') return 'header.sample';
  if (rest === 'example.header_handle') return 'header.media';
  if (rest === 'example.body_text') return 'body.samples';
  return `${section}.text`;
}

const NAME = /^[a-z0-9]+(_[a-z0-9]+)*$/;

/** The checks of the API's schema (lengths, the name's shape), before the upstream's review rules. */
function shapeErrors(draft: TemplateDraft): DraftErrors {
  const errors: DraftErrors = {};
  if (!NAME.test(draft.name))
    errors.name = 'lower case letters, digits and single underscores, e.g. order_update';
  else if (draft.name.length > 512) errors.name = 'at most 512 characters';
  if (!/^[a-z]{2,3}(_[A-Za-z0-9]{2,4})?$/.test(draft.language))
    errors.language = 'a language code, e.g. en_US';
  if (draft.headerKind === 'TEXT') {
    if (draft.headerText.trim() === '') errors['header.text'] = 'the header needs a text';
    else if (draft.headerText.length > TEMPLATE_LIMITS.headerText)
      errors['header.text'] = `at most ${TEMPLATE_LIMITS.headerText} characters`;
  }
  if (draft.body.length > TEMPLATE_LIMITS.body)
    errors['body.text'] = `at most ${TEMPLATE_LIMITS.body} characters`;
  if (draft.footer.length > TEMPLATE_LIMITS.footer)
    errors['footer.text'] = `at most ${TEMPLATE_LIMITS.footer} characters`;
  if (draft.buttons.length > TEMPLATE_LIMITS.buttons)
    errors.buttons = `at most ${TEMPLATE_LIMITS.buttons} buttons`;
  draft.buttons.forEach((b, i) => {
    if (b.text.length > TEMPLATE_LIMITS.buttonText)
      errors[`buttons.${i}.text`] = `at most ${TEMPLATE_LIMITS.buttonText} characters`;
  });
  return errors;
}

/** Every error of the draft, checked as the API and the upstream check it; the first error of a field wins. */
export function draftErrors(draft: TemplateDraft): DraftErrors {
  const errors = shapeErrors(draft);
  const { request, sections } = requestOf(draft, '');
  for (const e of templateDefinitionErrors(
    request.components as Parameters<typeof templateDefinitionErrors>[0],
  )) {
    const field = formFieldOf(e.field, sections);
    errors[field] ??= e.message;
  }
  return errors;
}

/** The text with each {{n}} replaced by its sample (kept as {{n}} while the sample is empty). */
export const withSamples = (text: string, samples: Record<number, string>) =>
  text.replace(/\{\{([1-9]\d*)\}\}/g, (m, n: string) => samples[Number(n)] || m);
