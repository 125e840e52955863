import { rolesUpTo, type Role } from '@bm/client';
import { useState, type FormEvent } from 'react';
import { useApiKeys, useIssueApiKey, useRevokeApiKey, type ApiKeySummary } from '../api/api-keys';
import { useCan, useSession } from '../api/session';
import { CopyButton } from '../components/copy-button';
import { DataTable, type Column } from '../components/data-table';
import { when } from '../components/format';
import { ErrorMessage, QueryState } from '../components/query-state';
import { StatusBadge } from '../components/status-badge';

function RevokeButton({ apiKey }: { apiKey: ApiKeySummary }) {
  const revoke = useRevokeApiKey();
  const can = useCan();
  if (apiKey.revoked_at || !can('revokeApiKey')) return null;
  const confirmAndRevoke = () => {
    if (window.confirm(`Revoke key ${apiKey.key_id}? Integrations using it stop working at once.`)) {
      revoke.mutate(apiKey.key_id);
    }
  };
  return (
    <>
      <button
        type="button"
        className="small danger"
        onClick={confirmAndRevoke}
        aria-label={`Revoke key ${apiKey.key_id}`}
      >
        Revoke
      </button>
      {revoke.isError && <ErrorMessage error={revoke.error} />}
    </>
  );
}

const COLUMNS: Column<ApiKeySummary>[] = [
  { header: 'Name', cell: (k) => k.name ?? '' },
  { header: 'Key ID', cell: (k) => <code>{k.key_id}</code> },
  { header: 'Role', cell: (k) => k.role ?? 'full access' },
  { header: 'Created', cell: (k) => when(k.created_at) },
  { header: 'Last used', cell: (k) => (k.last_used_at ? when(k.last_used_at) : 'never') },
  { header: 'Status', cell: (k) => <StatusBadge status={k.revoked_at ? 'revoked' : 'active'} /> },
  { header: 'Action', cell: (k) => <RevokeButton apiKey={k} /> },
];

function IssueForm({ myRole }: { myRole: Role }) {
  const issue = useIssueApiKey();
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role | ''>('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    issue.mutate({ ...(name.trim() ? { name: name.trim() } : {}), ...(role ? { role } : {}) });
  };
  return (
    <form className="stack card" onSubmit={submit} aria-labelledby="issue-heading">
      <h2 id="issue-heading">Issue a key</h2>
      <label>
        Name
        <input value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        Role
        <select value={role} onChange={(e) => setRole(e.target.value as Role | '')}>
          <option value="">{myRole === 'owner' ? 'Full access' : `Mine (${myRole})`}</option>
          {rolesUpTo(myRole).map((r) => (
            <option key={r}>{r}</option>
          ))}
        </select>
      </label>
      {issue.data && (
        <div className="stack">
          <p role="status">Copy the new key now: it is shown only this once.</p>
          <span className="with-action">
            <code className="secret" data-testid="new-key">
              {issue.data.api_key}
            </code>
            <CopyButton value={issue.data.api_key} label="Copy the new API key" />
          </span>
        </div>
      )}
      {issue.isError && <ErrorMessage error={issue.error} />}
      <button type="submit" className="primary" disabled={issue.isPending}>
        Issue a key
      </button>
    </form>
  );
}

/** The tenant's API keys: issue one (shown once, named, with a role), revoke; only for the roles that may. */
export function ApiKeysScreen() {
  const keys = useApiKeys();
  const can = useCan();
  const myRole = useSession().data?.user.role;
  return (
    <>
      <h1>API keys</h1>
      {myRole && can('issueApiKey') && <IssueForm myRole={myRole} />}
      <QueryState query={keys} isEmpty={(rows) => rows.length === 0} empty={<p>No keys yet.</p>}>
        {(rows) => <DataTable caption="API keys" columns={COLUMNS} rows={rows} rowKey={(k) => k.key_id} />}
      </QueryState>
    </>
  );
}
