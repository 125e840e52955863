import { ApiError } from '@bm/client';
import { useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useFlow, useSaveFlow, type Flow, type SaveFlowRequest } from '../api/flows';
import { useChannelAccounts } from '../api/numbers';
import { AccountOptions } from '../components/account-options';
import {
  MAX_BUTTONS,
  STEP_KINDS,
  draftOf,
  emptyFlowDraft,
  flowDraftErrors,
  flowFieldOf,
  newStep,
  saveRequestOf,
  stepsOf,
  type FlowDraft,
  type FlowErrors,
  type StepDraft,
  type StepKind,
} from '../components/flow-draft';
import { FlowPreview } from '../components/flow-preview';
import { FormField } from '../components/form-field';
import { ErrorMessage, QueryState } from '../components/query-state';

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

function StepFields(props: {
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

/** The API's 422 answer as errors of the editor's fields. */
function serverErrorsOf(error: unknown, draft: FlowDraft): FlowErrors {
  if (!(error instanceof ApiError) || error.code !== 'VALIDATION_ERROR') return {};
  const { origins } = stepsOf(draft);
  const out: FlowErrors = {};
  for (const e of error.details?.errors ?? []) out[flowFieldOf(e.field, origins)] ??= e.message;
  return out;
}

/**
 * The flow editor: trigger keywords and steps (messages with reply buttons leading to other steps, hand-off,
 * end), the API's graph rules checked as the user types, and a preview that plays the conversation.
 */
function FlowEditor({ flow, initial }: { flow?: Flow; initial: FlowDraft }) {
  const accounts = useChannelAccounts();
  const [picked, setPicked] = useState(flow?.channel_account_id ?? '');
  const account = picked || accounts.data?.[0]?.channel_account_id || '';
  const [draft, setDraft] = useState(initial);
  const [server, setServer] = useState<FlowErrors>({});
  const errors = useMemo(() => flowDraftErrors(draft), [draft]);
  const [touched, setTouched] = useState(flow !== undefined);
  const save = useSaveFlow();
  const navigate = useNavigate();
  // Graph errors show from the first edit on (an untouched new flow is not yet wrong); the server's until the
  // next edit.
  const errorOf = (field: string) => server[field] ?? (touched ? errors[field] : undefined);
  const problems = Object.keys(errors).length;

  const change = (next: FlowDraft) => {
    setDraft(next);
    setTouched(true);
    setServer({});
  };
  const setStep = (i: number, patch: Partial<StepDraft>) => {
    const before = draft.steps[i];
    const renamed = patch.id !== undefined && patch.id !== before.id;
    // A renamed step keeps the ways into it.
    const retarget = (id: string) => (renamed && id === before.id ? patch.id! : id);
    change({
      ...draft,
      steps: draft.steps.map((s, j) => {
        const moved = {
          ...s,
          next: retarget(s.next),
          buttons: s.buttons.map((b) => ({ ...b, target: retarget(b.target) })),
        };
        return j === i ? { ...moved, ...patch } : moved;
      }),
    });
  };
  const addStep = () => {
    let k = draft.steps.length + 1;
    while (draft.steps.some((s) => s.id === `step${k}`)) k++;
    change({ ...draft, steps: [...draft.steps, newStep(`step${k}`)] });
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const body = saveRequestOf(draft, account) as SaveFlowRequest;
    save.mutate(
      { id: flow?.flow_id, body },
      {
        onSuccess: (saved) => void navigate(flow ? `/flows/${saved.flow_id}` : '/flows'),
        onError: (error) => setServer(serverErrorsOf(error, draft)),
      },
    );
  };

  return (
    <form
      className="stack"
      onSubmit={onSubmit}
      aria-label={flow ? `Edit flow ${flow.name}` : 'New flow'}
      noValidate
    >
      <div className="builder">
        <div className="stack">
          <section className="card stack">
            <FormField label="Number">
              <select
                value={account}
                onChange={(e) => setPicked(e.target.value)}
                disabled={flow !== undefined}
              >
                <AccountOptions accounts={accounts.data} />
              </select>
            </FormField>
            <FormField label="Flow name" error={errorOf('name')}>
              <input value={draft.name} onChange={(e) => change({ ...draft, name: e.target.value })} />
            </FormField>
            <FormField
              label="Trigger keywords"
              error={errorOf('keywords')}
              hint="Comma-separated; the customer's whole message, any case, starts the flow"
            >
              <input
                value={draft.keywords}
                disabled={draft.anyNewConversation}
                onChange={(e) => change({ ...draft, keywords: e.target.value })}
              />
            </FormField>
            <label className="inline">
              <input
                type="checkbox"
                checked={draft.anyNewConversation}
                onChange={(e) => change({ ...draft, anyNewConversation: e.target.checked })}
              />
              Start on any new conversation instead
            </label>
          </section>
          {errorOf('steps') && (
            <p role="alert" className="error">
              {errorOf('steps')}
            </p>
          )}
          {draft.steps.map((s, i) => (
            <StepFields
              key={i}
              index={i}
              step={s}
              steps={draft.steps}
              errorOf={errorOf}
              onChange={(patch) => setStep(i, patch)}
              onRemove={
                draft.steps.length > 1
                  ? () => change({ ...draft, steps: draft.steps.filter((_s, j) => j !== i) })
                  : undefined
              }
            />
          ))}
          <button type="button" onClick={addStep}>
            Add a step
          </button>
        </div>
        <FlowPreview draft={draft} />
      </div>
      {save.isError && Object.keys(server).length === 0 && <ErrorMessage error={save.error} />}
      {Object.keys(server).length > 0 && (
        <p role="alert" className="error">
          The API refused the flow: see the fields marked.
        </p>
      )}
      {problems > 0 && touched && (
        <p className="muted" id="flow-problems">
          {problems === 1 ? '1 problem' : `${problems} problems`} to fix before the flow can be saved.
        </p>
      )}
      <button
        type="submit"
        className="primary"
        disabled={save.isPending || account === '' || problems > 0}
        aria-describedby={problems > 0 && touched ? 'flow-problems' : undefined}
      >
        {flow ? 'Save a new version' : 'Save the flow'}
      </button>
    </form>
  );
}

export function NewFlowScreen() {
  return (
    <>
      <h1>New flow</h1>
      <p className="muted">
        A new flow is inactive: activate it from the list once it is saved.{' '}
        <Link to="/flows">Back to flows</Link>
      </p>
      <FlowEditor initial={emptyFlowDraft()} />
    </>
  );
}

export function EditFlowScreen() {
  const id = useParams().id ?? '';
  const flow = useFlow(id);
  return (
    <QueryState query={flow} empty={null}>
      {(f) => {
        const initial = draftOf(f);
        return (
          <>
            <h1>Edit flow {f.name}</h1>
            {initial ? (
              <FlowEditor flow={f} initial={initial} />
            ) : (
              <p role="alert">
                This flow uses steps the editor does not edit (templates, lists, variables or keyword
                branches); change it through the API (PUT /api/v1/flows/{'{id}'}).
              </p>
            )}
          </>
        );
      }}
    </QueryState>
  );
}
