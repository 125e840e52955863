import { useAuditLog, type AuditLogEntry } from '../api/team';
import { useFilterParams } from '../components/filter-params';
import { when } from '../components/format';
import { PagedList, type ListSpec } from '../components/paged-table';

const actorOf = (e: AuditLogEntry) => (e.actor.type === 'user' ? e.actor.email : `API key ${e.actor.key_id}`);

const AUDIT_LIST: ListSpec<AuditLogEntry> = {
  columns: [
    { header: 'When', cell: (e) => when(e.created_at) },
    { header: 'Who', cell: actorOf },
    {
      header: 'What',
      cell: (e) => (
        <>
          {e.action}
          <br />
          <span className="muted small">
            {e.method} {e.path}
          </span>
        </>
      ),
    },
    { header: 'Status', cell: (e) => e.status },
    { header: 'From', cell: (e) => e.ip ?? '' },
    { header: 'Request ID', cell: (e) => <span className="small">{e.request_id ?? ''}</span> },
  ],
  caption: 'Audit log',
  empty: 'No changes match.',
  rowKey: (e) => e.id,
};

// datetime-local values are wall-clock time in the viewer's zone; the API wants instants.
const toInstant = (local: string | null) => (local ? new Date(local).toISOString() : undefined);

/** Every change made by the team or an API key, newest first, filtered by who, what and when. */
export function AuditLogScreen() {
  const [params, set] = useFilterParams();
  const field = (name: string) => params.get(name) ?? '';
  const log = useAuditLog({
    actor: params.get('actor') || undefined,
    action: params.get('action') || undefined,
    from: toInstant(params.get('from')),
    to: toInstant(params.get('to')),
    page: Number(params.get('page') ?? 1),
  });
  return (
    <>
      <h1>Audit log</h1>
      <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filter the audit log">
        <label>
          Who (email, user or key ID)
          <input defaultValue={field('actor')} onBlur={(e) => set('actor', e.target.value.trim())} />
        </label>
        <label>
          Action (operation)
          <input
            defaultValue={field('action')}
            placeholder="issueApiKey"
            onBlur={(e) => set('action', e.target.value.trim())}
          />
        </label>
        <label>
          From
          <input type="datetime-local" value={field('from')} onChange={(e) => set('from', e.target.value)} />
        </label>
        <label>
          To
          <input type="datetime-local" value={field('to')} onChange={(e) => set('to', e.target.value)} />
        </label>
      </form>
      <PagedList
        query={log}
        rows={(data) => data.entries}
        list={AUDIT_LIST}
        onPage={(page) => set('page', String(page))}
      />
    </>
  );
}
