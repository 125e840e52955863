import { ApiError } from '@bm/client';
import { useMemo, useState, type FormEvent } from 'react';
import { useSubmitTemplate } from '../api/templates';
import { FormField } from '../components/form-field';
import { ButtonFields, HEADER_LABELS, TemplatePreview } from '../components/template-builder-parts';
import { ErrorMessage } from '../components/query-state';
import {
  HEADER_KINDS,
  bodyVariables,
  draftErrors,
  emptyDraft,
  formFieldOf,
  newButton,
  requestOf,
  type ButtonDraft,
  type DraftErrors,
  type HeaderKind,
  type TemplateDraft,
} from '../components/template-draft';

const LANGUAGES = [
  'en_US',
  'en_GB',
  'es_ES',
  'es_MX',
  'pt_BR',
  'fr_FR',
  'de_DE',
  'it_IT',
  'nl_NL',
  'ar',
  'hi',
  'id',
];

/** The field whose edit shows a field's error too. */
const PARENT: Record<string, string> = {
  'body.samples': 'body.text',
  'header.sample': 'header.text',
  'header.media': 'header',
  'header.text': 'header',
};

/** The API's 422 answer as errors of the form's fields. */
function serverErrorsOf(error: unknown, sections: ReturnType<typeof requestOf>['sections']): DraftErrors {
  if (!(error instanceof ApiError) || error.code !== 'VALIDATION_ERROR') return {};
  const list = error.details?.errors ?? [];
  const out: DraftErrors = {};
  for (const e of list) out[formFieldOf(e.field, sections)] ??= e.message;
  return out;
}

/**
 * The template builder: header, body with a sample per variable, footer and buttons, checked as the upstream
 * reviews templates while the user types (the API checks with the same rules), with a live preview. Submit is
 * enabled once the draft is valid; the API's 422 answer is shown next to the fields it names.
 */
export function TemplateBuilder({ account }: { account: string }) {
  const submit = useSubmitTemplate();
  const [draft, setDraft] = useState<TemplateDraft>(emptyDraft);
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [server, setServer] = useState<DraftErrors>({});
  const local = useMemo(() => draftErrors(draft), [draft]);
  const variables = bodyVariables(draft);

  const change = (patch: Partial<TemplateDraft>, ...fields: string[]) => {
    setDraft((d) => ({ ...d, ...patch }));
    setTouched((t) => new Set([...t, ...fields]));
    setServer({});
  };
  const setButton = (i: number, patch: Partial<ButtonDraft>) =>
    change({ buttons: draft.buttons.map((b, j) => (j === i ? { ...b, ...patch } : b)) }, `buttons.${i}`);
  // A field's error shows once the user touched it (or the field it follows from: a sample shows its error as
  // the variable is typed); the server's answer shows until the next edit.
  const shown = (field: string) =>
    server[field] ??
    (touched.has(field) || touched.has(PARENT[field] ?? field.split('.').slice(0, 2).join('.'))
      ? local[field]
      : undefined);
  const problems = Object.keys(local).length;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const { request, sections } = requestOf(draft, account);
    submit.mutate(request, {
      onSuccess: () => {
        setDraft(emptyDraft());
        setTouched(new Set());
      },
      onError: (error) => setServer(serverErrorsOf(error, sections)),
    });
  };
  const unplaced = submit.isError && Object.keys(server).length === 0;

  return (
    <form className="card stack" onSubmit={onSubmit} aria-label="Build a template" noValidate>
      <h2>Build a template</h2>
      <div className="builder">
        <div className="stack">
          <FormField
            label="Template name"
            error={shown('name')}
            hint="Lower case, digits and _, e.g. order_update"
          >
            <input value={draft.name} onChange={(e) => change({ name: e.target.value }, 'name')} />
          </FormField>
          <FormField label="Language" error={shown('language')}>
            <select value={draft.language} onChange={(e) => change({ language: e.target.value }, 'language')}>
              {LANGUAGES.map((l) => (
                <option key={l}>{l}</option>
              ))}
            </select>
          </FormField>
          <FormField label="Category" error={shown('category')}>
            <select value={draft.category} onChange={(e) => change({ category: e.target.value }, 'category')}>
              <option>UTILITY</option>
              <option>MARKETING</option>
              <option>AUTHENTICATION</option>
            </select>
          </FormField>
          <fieldset className="stack">
            <legend>Header</legend>
            <FormField label="Header type">
              <select
                value={draft.headerKind}
                onChange={(e) => change({ headerKind: e.target.value as HeaderKind }, 'header')}
              >
                {HEADER_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {HEADER_LABELS[k]}
                  </option>
                ))}
              </select>
            </FormField>
            {draft.headerKind === 'TEXT' && (
              <>
                <FormField
                  label="Header text"
                  error={shown('header.text')}
                  hint="At most 60 characters, one {{1}}"
                >
                  <input
                    value={draft.headerText}
                    onChange={(e) => change({ headerText: e.target.value }, 'header.text')}
                  />
                </FormField>
                {draft.headerText.includes('{{1}}') && (
                  <FormField label="Header sample for {{1}}" error={shown('header.sample')}>
                    <input
                      value={draft.headerSample}
                      onChange={(e) => change({ headerSample: e.target.value }, 'header.sample')}
                    />
                  </FormField>
                )}
              </>
            )}
            {draft.headerKind !== 'NONE' && draft.headerKind !== 'TEXT' && (
              <FormField
                label="Header sample media URL"
                error={shown('header.media')}
                hint="An http(s) URL of a sample; sends reuse it unless they give their own media"
              >
                <input
                  type="url"
                  value={draft.headerMediaUrl}
                  onChange={(e) => change({ headerMediaUrl: e.target.value }, 'header.media')}
                />
              </FormField>
            )}
          </fieldset>
          <FormField
            label="Body"
            error={shown('body.text')}
            hint="Variables are {{1}}, {{2}}…; at most 1024 characters"
          >
            <textarea
              rows={4}
              value={draft.body}
              onChange={(e) => change({ body: e.target.value }, 'body.text')}
            />
          </FormField>
          {variables.length > 0 && (
            <fieldset className="stack" aria-label="Body samples">
              <legend>Samples (the upstream reviews the template with them)</legend>
              {variables.map((n) => (
                <FormField key={n} label={`Body sample for {{${n}}}`}>
                  <input
                    value={draft.bodySamples[n] ?? ''}
                    onChange={(e) =>
                      change({ bodySamples: { ...draft.bodySamples, [n]: e.target.value } }, 'body.samples')
                    }
                  />
                </FormField>
              ))}
              {shown('body.samples') && <span className="error field-error">{shown('body.samples')}</span>}
            </fieldset>
          )}
          <FormField
            label="Footer (optional)"
            error={shown('footer.text')}
            hint="At most 60 characters, no variables"
          >
            <input value={draft.footer} onChange={(e) => change({ footer: e.target.value }, 'footer.text')} />
          </FormField>
          <fieldset className="stack">
            <legend>Buttons (optional, at most 10)</legend>
            {draft.buttons.map((b, i) => (
              <ButtonFields
                key={i}
                index={i}
                button={b}
                errorOf={shown}
                onChange={(patch) => setButton(i, patch)}
                onRemove={() => change({ buttons: draft.buttons.filter((_b, j) => j !== i) }, 'buttons')}
              />
            ))}
            {shown('buttons') && <span className="error field-error">{shown('buttons')}</span>}
            <button
              type="button"
              className="small"
              disabled={draft.buttons.length >= 10}
              onClick={() => change({ buttons: [...draft.buttons, newButton('QUICK_REPLY')] }, 'buttons')}
            >
              Add a button
            </button>
          </fieldset>
        </div>
        <TemplatePreview draft={draft} />
      </div>
      {server.form && (
        <p role="alert" className="error">
          {server.form}
        </p>
      )}
      {unplaced && <ErrorMessage error={submit.error} />}
      {Object.keys(server).length > 0 && (
        <p role="alert" className="error">
          The API refused the template: see the fields marked.
        </p>
      )}
      {submit.isSuccess && (
        <p role="status">
          Submitted {submit.data.name} for review: {submit.data.status}.
        </p>
      )}
      {problems > 0 && (
        <p className="muted" id="builder-problems">
          {problems === 1 ? '1 field needs' : `${problems} fields need`} attention before the template can be
          submitted.
        </p>
      )}
      <button
        type="submit"
        className="primary"
        disabled={submit.isPending || account === '' || problems > 0}
        aria-describedby={problems > 0 ? 'builder-problems' : undefined}
      >
        Submit for review
      </button>
    </form>
  );
}
