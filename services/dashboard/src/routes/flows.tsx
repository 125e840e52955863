import { useState } from 'react';
import { Link, useParams } from 'react-router';
import {
  useFlow,
  useFlows,
  useFlowSessions,
  useSetFlowActive,
  type Flow,
  type FlowSession,
  type FlowStep,
} from '../api/flows';
import { phone, when } from '../components/format';
import { PagedList, type ListSpec } from '../components/paged-table';
import { ErrorMessage, QueryState } from '../components/query-state';
import { StatusBadge } from '../components/status-badge';
import { useCan } from '../api/session';

const triggerText = (f: Flow) =>
  f.trigger.type === 'keyword' ? `Keyword: ${(f.trigger.keywords ?? []).join(', ')}` : 'Any new conversation';

function ActiveToggle({ flow }: { flow: Flow }) {
  const toggle = useSetFlowActive();
  const can = useCan();
  const active = flow.status === 'active';
  if (!can('activateFlow')) return null;
  return (
    <>
      <button
        type="button"
        className="small"
        disabled={toggle.isPending}
        aria-label={`${active ? 'Deactivate' : 'Activate'} ${flow.name}`}
        onClick={() => toggle.mutate({ id: flow.flow_id, active: !active })}
      >
        {active ? 'Deactivate' : 'Activate'}
      </button>
      {toggle.isError && <ErrorMessage error={toggle.error} />}
    </>
  );
}

const FLOW_LIST: ListSpec<Flow> = {
  columns: [
    { header: 'Name', cell: (f) => <Link to={`/flows/${f.flow_id}`}>{f.name}</Link> },
    { header: 'Trigger', cell: triggerText },
    { header: 'Status', cell: (f) => <StatusBadge status={f.status} /> },
    { header: 'Steps', cell: (f) => f.steps.length },
    { header: 'Created', cell: (f) => when(f.created_at) },
    { header: 'Action', cell: (f) => <ActiveToggle flow={f} /> },
  ],
  caption: 'Flows',
  empty: 'No flows yet.',
  rowKey: (f) => f.flow_id,
};

export function FlowsScreen() {
  const [page, setPage] = useState(1);
  const flows = useFlows(page);
  return (
    <>
      <div className="with-action">
        <h1>Flows</h1>
        <Link to="/flows/new" className="button">
          New flow
        </Link>
      </div>
      <p className="muted">
        A flow answers a customer&apos;s keyword with messages and buttons, or hands off to a person.
      </p>
      <PagedList query={flows} rows={(data) => data.flows} list={FLOW_LIST} onPage={setPage} />
    </>
  );
}

/** What a step does, in a line, and where it goes next (the edges of the graph). */
function describe(step: FlowStep): { what: string; next: string[] } {
  const s = step as FlowStep & Record<string, unknown>;
  switch (step.type) {
    case 'send_text':
      return { what: `Send text: “${String(s.text)}”`, next: [String(s.next)] };
    case 'send_template':
      return { what: `Send template ${(s.template as { name: string }).name}`, next: [String(s.next)] };
    case 'send_buttons':
      return {
        what: `Send buttons: “${String(s.body)}” [${(s.buttons as Array<{ title: string }>).map((b) => b.title).join(' | ')}]`,
        next: [String(s.next)],
      };
    case 'send_list':
      return { what: `Send a list: “${String(s.body)}”`, next: [String(s.next)] };
    case 'wait_for_reply': {
      const branches = s.branches as Array<Record<string, string>>;
      return {
        what: `Wait for a reply${typeof s.save_as === 'string' ? ` (kept as ${s.save_as})` : ''}`,
        next: [
          ...branches.map(
            (b) =>
              `${b.button_id ? `button ${b.button_id}` : b.row_id ? `row ${b.row_id}` : `“${b.keyword}”`} → ${b.next}`,
          ),
          `anything else → ${String(s.fallback)}`,
        ],
      };
    }
    case 'set_variable':
      return { what: `Set ${String(s.variable)} = ${String(s.value)}`, next: [String(s.next)] };
    case 'handoff':
      return { what: 'Hand off to a person (live chat request)', next: [] };
    case 'end':
      return { what: 'End', next: [] };
  }
}

const SESSION_LIST: ListSpec<FlowSession> = {
  columns: [
    { header: 'Phone', cell: (s) => phone(s.phone) },
    { header: 'Status', cell: (s) => <StatusBadge status={s.status} /> },
    { header: 'Step', cell: (s) => s.current_step ?? '—' },
    { header: 'Version', cell: (s) => s.flow_version },
    {
      header: 'Variables',
      cell: (s) =>
        Object.entries(s.variables)
          .map(([k, v]) => `${k}=${v}`)
          .join(', '),
    },
    { header: 'Started', cell: (s) => when(s.started_at) },
    { header: 'Ended', cell: (s) => when(s.ended_at) },
  ],
  caption: 'Sessions',
  empty: 'No sessions yet.',
  rowKey: (s) => s.session_id,
};

/** A flow: its trigger, its steps as an outline (each step with its ways out), its sessions and their states. */
export function FlowScreen() {
  const id = useParams().id ?? '';
  const flow = useFlow(id);
  const [page, setPage] = useState(1);
  const sessions = useFlowSessions(id, page);
  return (
    <QueryState query={flow} empty={null}>
      {(f) => (
        <div className="stack">
          <div className="with-action">
            <h1>Flow {f.name}</h1>
            <ActiveToggle flow={f} />
            <Link to={`/flows/${f.flow_id}/edit`} className="button">
              Edit
            </Link>
          </div>
          <p>
            <StatusBadge status={f.status} /> · {triggerText(f)}
          </p>
          <section className="card stack" aria-labelledby="steps-heading">
            <h2 id="steps-heading">Steps</h2>
            <ol className="outline" aria-label="Flow steps">
              {f.steps.map((step) => {
                const { what, next } = describe(step);
                const id = (step as { id: string }).id;
                return (
                  <li key={id}>
                    <code>{id}</code> {what}
                    {next.length > 0 && (
                      <ul>
                        {next.map((n) => (
                          <li key={n}>→ {n}</li>
                        ))}
                      </ul>
                    )}
                  </li>
                );
              })}
            </ol>
          </section>
          <section className="stack" aria-labelledby="sessions-heading">
            <h2 id="sessions-heading">Sessions</h2>
            <PagedList query={sessions} rows={(data) => data.sessions} list={SESSION_LIST} onPage={setPage} />
          </section>
        </div>
      )}
    </QueryState>
  );
}
