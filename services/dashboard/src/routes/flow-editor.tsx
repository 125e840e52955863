import { ApiError } from '@bm/client';
import { useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useFlow, useSaveFlow, type Flow, type SaveFlowRequest } from '../api/flows';
import { useChannelAccounts } from '../api/numbers';
import { AccountOptions } from '../components/account-options';
import {
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
} from '../components/flow-draft';
import { FlowPreview } from '../components/flow-preview';
import { StepFields } from '../components/flow-step-fields';
import { FormField } from '../components/form-field';
import { ErrorMessage, QueryState } from '../components/query-state';

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
