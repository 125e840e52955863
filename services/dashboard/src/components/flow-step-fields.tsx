import { FormField } from './form-field';
import { MAX_BUTTONS, STEP_KINDS, type StepDraft, type StepKind } from './flow-draft';

function StepTarget(props: {
  label: string;
  value: string;
  steps: StepDraft[];
  error?: string;
  onChange: (id: string) => void;
}) {
  const known = props.steps.some((s) => s.id === props.value);
  return (
    <FormField label={props.label} error={props.error}>
      <select value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">Choose a step</option>
        {props.value !== '' && !known && <option value={props.value}>{props.value} (missing)</option>}
        {props.steps.map((s, i) => (
          <option key={i} value={s.id}>
            {s.id}
          </option>
        ))}
      </select>
    </FormField>
  );
}

/** One step of the flow editor: its name, what it does, its message and reply buttons, where it goes. */
export function StepFields(props: {
  index: number;
  step: StepDraft;
  steps: StepDraft[];
  errorOf: (field: string) => string | undefined;
  onChange: (patch: Partial<StepDraft>) => void;
  onRemove?: () => void;
}) {
  const { index: i, step: s } = props;
  const n = i + 1;
  const err = (field: string) => props.errorOf(`steps.${i}${field === '' ? '' : `.${field}`}`);
  const setButton = (j: number, patch: Partial<StepDraft['buttons'][number]>) =>
    props.onChange({ buttons: s.buttons.map((b, k) => (k === j ? { ...b, ...patch } : b)) });
  return (
    <fieldset className="stack" aria-label={`Step ${n}`}>
      <legend>
        Step {n}
        {i === 0 ? ' (starts the flow)' : ''}
      </legend>
      {err('') && <p className="error field-error">{err('')}</p>}
      <FormField label={`Step ${n} name`} error={err('id')}>
        <input value={s.id} onChange={(e) => props.onChange({ id: e.target.value })} />
      </FormField>
      <FormField label={`Step ${n} does`}>
        <select value={s.kind} onChange={(e) => props.onChange({ kind: e.target.value as StepKind })}>
          {(Object.keys(STEP_KINDS) as StepKind[]).map((k) => (
            <option key={k} value={k}>
              {STEP_KINDS[k]}
            </option>
          ))}
        </select>
      </FormField>
      {s.kind === 'message' && (
        <>
          <FormField label={`Step ${n} message`} error={err('text')}>
            <textarea rows={2} value={s.text} onChange={(e) => props.onChange({ text: e.target.value })} />
          </FormField>
          {s.buttons.map((b, j) => (
            <div key={j} className="flow-button" role="group" aria-label={`Step ${n} button ${j + 1}`}>
              <FormField label={`Step ${n} button ${j + 1} title`} error={err(`buttons.${j}.title`)}>
                <input value={b.title} onChange={(e) => setButton(j, { title: e.target.value })} />
              </FormField>
              <StepTarget
                label={`Step ${n} button ${j + 1} leads to`}
                value={b.target}
                steps={props.steps}
                error={err(`buttons.${j}.target`)}
                onChange={(target) => setButton(j, { target })}
              />
              <button
                type="button"
                className="small"
                onClick={() => props.onChange({ buttons: s.buttons.filter((_b, k) => k !== j) })}
              >
                Remove step {n} button {j + 1}
              </button>
            </div>
          ))}
          {s.buttons.length === 0 && (
            <StepTarget
              label={`Step ${n} then goes to`}
              value={s.next}
              steps={props.steps}
              error={err('next')}
              onChange={(next) => props.onChange({ next })}
            />
          )}
          <button
            type="button"
            className="small"
            disabled={s.buttons.length >= MAX_BUTTONS}
            onClick={() => props.onChange({ buttons: [...s.buttons, { title: '', target: '' }] })}
          >
            Add a reply button to step {n}
          </button>
        </>
      )}
      {props.onRemove && (
        <button type="button" className="small danger" onClick={props.onRemove}>
          Remove step {n}
        </button>
      )}
    </fieldset>
  );
}
