import { useApiKeys, useIssueApiKey, useRevokeApiKey, type ApiKeySummary } from '../api/api-keys';
import { CopyButton } from '../components/copy-button';
import { DataTable, type Column } from '../components/data-table';
import { when } from '../components/format';
import { ErrorMessage, QueryState } from '../components/query-state';
import { StatusBadge } from '../components/status-badge';

function RevokeButton({ apiKey }: { apiKey: ApiKeySummary }) {
  const revoke = useRevokeApiKey();
  if (apiKey.revoked_at) return null;
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
  { header: 'Key ID', cell: (k) => <code>{k.key_id}</code> },
  { header: 'Created', cell: (k) => when(k.created_at) },
  { header: 'Last used', cell: (k) => (k.last_used_at ? when(k.last_used_at) : 'never') },
  { header: 'Status', cell: (k) => <StatusBadge status={k.revoked_at ? 'revoked' : 'active'} /> },
  { header: 'Action', cell: (k) => <RevokeButton apiKey={k} /> },
];

/** The tenant's API keys: issue one (shown once), revoke. */
export function ApiKeysScreen() {
  const keys = useApiKeys();
  const issue = useIssueApiKey();
  return (
    <>
      <h1>API keys</h1>
      <section className="stack card" aria-labelledby="issue-heading">
        <h2 id="issue-heading">Issue a key</h2>
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
        <button type="button" className="primary" onClick={() => issue.mutate()} disabled={issue.isPending}>
          Issue a key
        </button>
      </section>
      <QueryState query={keys} isEmpty={(rows) => rows.length === 0} empty={<p>No keys yet.</p>}>
        {(rows) => <DataTable caption="API keys" columns={COLUMNS} rows={rows} rowKey={(k) => k.key_id} />}
      </QueryState>
    </>
  );
}
