import { FormField } from './form-field';
import {
  BUTTON_LABELS,
  BUTTON_TYPES,
  withSamples,
  type ButtonDraft,
  type ButtonType,
  type HeaderKind,
  type TemplateDraft,
} from './template-draft';

export const HEADER_LABELS: Record<HeaderKind, string> = {
  NONE: 'None',
  TEXT: 'Text',
  IMAGE: 'Image',
  VIDEO: 'Video',
  DOCUMENT: 'Document',
};

/** How the customer sees the template: its header, the body with the samples, the footer and the buttons. */
export function TemplatePreview({ draft }: { draft: TemplateDraft }) {
  const header =
    draft.headerKind === 'TEXT'
      ? withSamples(draft.headerText, { 1: draft.headerSample })
      : draft.headerKind === 'NONE'
        ? ''
        : `[${HEADER_LABELS[draft.headerKind]}${draft.headerMediaUrl ? `: ${draft.headerMediaUrl}` : ''}]`;
  return (
    <section className="card stack" aria-label="Preview">
      <h3>Preview</h3>
      <div className="bubble bubble-outbound template-preview">
        {header && <p className="preview-header">{header}</p>}
        <p className="text">{withSamples(draft.body, draft.bodySamples) || '…'}</p>
        {draft.footer && <p className="muted small">{draft.footer}</p>}
        {draft.buttons.length > 0 && (
          <ul className="preview-buttons" aria-label="Preview buttons">
            {draft.buttons.map((b, i) => (
              <li key={i}>{b.type === 'COPY_CODE' ? 'Copy offer code' : b.text || BUTTON_LABELS[b.type]}</li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

export function ButtonFields(props: {
  index: number;
  button: ButtonDraft;
  errorOf: (field: string) => string | undefined;
  onChange: (patch: Partial<ButtonDraft>) => void;
  onRemove: () => void;
}) {
  const { index: i, button: b } = props;
  const n = i + 1;
  const err = (field: string) => props.errorOf(`buttons.${i}.${field}`);
  return (
    <fieldset className="stack" aria-label={`Button ${n}`}>
      <legend>Button {n}</legend>
      <FormField label={`Button ${n} type`}>
        <select value={b.type} onChange={(e) => props.onChange({ type: e.target.value as ButtonType })}>
          {BUTTON_TYPES.map((t) => (
            <option key={t} value={t}>
              {BUTTON_LABELS[t]}
            </option>
          ))}
        </select>
      </FormField>
      {b.type !== 'COPY_CODE' && (
        <FormField label={`Button ${n} text`} error={err('text')}>
          <input value={b.text} onChange={(e) => props.onChange({ text: e.target.value })} />
        </FormField>
      )}
      {b.type === 'URL' && (
        <>
          <FormField
            label={`Button ${n} URL`}
            error={err('url')}
            hint="May end with {{1}}, e.g. https://shop.example/track/{{1}}"
          >
            <input type="url" value={b.url} onChange={(e) => props.onChange({ url: e.target.value })} />
          </FormField>
          {b.url.includes('{{') && (
            <FormField label={`Button ${n} sample URL`} error={err('example')}>
              <input
                type="url"
                value={b.urlSample}
                onChange={(e) => props.onChange({ urlSample: e.target.value })}
              />
            </FormField>
          )}
        </>
      )}
      {b.type === 'PHONE_NUMBER' && (
        <FormField label={`Button ${n} phone number`} error={err('phone')}>
          <input type="tel" value={b.phone} onChange={(e) => props.onChange({ phone: e.target.value })} />
        </FormField>
      )}
      {b.type === 'COPY_CODE' && (
        <FormField label={`Button ${n} sample code`} error={err('example')}>
          <input value={b.code} onChange={(e) => props.onChange({ code: e.target.value })} />
        </FormField>
      )}
      <button type="button" className="small" onClick={props.onRemove}>
        Remove button {n}
      </button>
    </fieldset>
  );
}
