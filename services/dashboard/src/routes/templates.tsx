import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useChannelAccounts } from '../api/numbers';
import { useSyncTemplates, useTemplates, type Template } from '../api/templates';
import { DataTable, type Column } from '../components/data-table';
import { ErrorMessage, QueryState } from '../components/query-state';
import { shapeOf } from '../components/template-fields';
import { AccountOptions } from '../components/account-options';
import { TemplateBuilder } from './template-builder';
import { useCan } from '../api/session';

/** The number the template screens show: the one picked, else the first. */
function useAccount(): [string, (id: string) => void, ReturnType<typeof useChannelAccounts>] {
  const accounts = useChannelAccounts();
  const [picked, setPicked] = useState('');
  return [picked || accounts.data?.[0]?.channel_account_id || '', setPicked, accounts];
}

// A mark per status beside its word, so the badges differ without colour too.
const STATUS_MARKS: Record<string, string> = {
  APPROVED: '✓',
  PENDING: '…',
  REJECTED: '✕',
  PAUSED: '‖',
  DISABLED: '⊘',
};

function TemplateStatusBadge({ status }: { status: string }) {
  return (
    <span className={`badge badge-${status.toLowerCase()}`}>
      <span aria-hidden="true">{STATUS_MARKS[status] ?? '•'} </span>
      {status}
    </span>
  );
}

// The upstream's rejection reasons in words; an unknown one shows as the upstream wrote it.
const REJECTION_REASONS: Record<string, string> = {
  INVALID_FORMAT: 'Invalid format',
  TAG_CONTENT_MISMATCH: 'The content does not match the category',
  ABUSIVE_CONTENT: 'Abusive content',
  INCORRECT_CATEGORY: 'Incorrect category',
  PROMOTIONAL: 'Promotional content in a non-marketing template',
  SCAM: 'Looks like a scam',
};

/** Why the upstream rejected the template, for REJECTED ones only. */
export function rejectionText(t: Template): string {
  if (t.status !== 'REJECTED') return '';
  if (!t.rejected_reason) return 'No reason given';
  const words = REJECTION_REASONS[t.rejected_reason.toUpperCase()];
  return words ? `${words} (${t.rejected_reason})` : t.rejected_reason;
}

const COLUMNS: Column<Template>[] = [
  { header: 'Name', cell: (t) => <Link to={`/templates/${t.channel_account_id}/${t.id}`}>{t.name}</Link> },
  { header: 'Language', cell: (t) => t.language },
  { header: 'Status', cell: (t) => <TemplateStatusBadge status={t.status} /> },
  { header: 'Rejection reason', cell: rejectionText },
  { header: 'Category', cell: (t) => t.category },
  { header: 'Header', cell: (t) => t.header_format ?? 'none' },
  { header: 'Quality', cell: (t) => (t.flag ? `Flagged${t.flag.reason ? `: ${t.flag.reason}` : ''}` : 'OK') },
];

/** The number's templates with status, category, language and header type; submit a new one for review. */
export function TemplatesScreen() {
  const [account, setAccount, accounts] = useAccount();
  const templates = useTemplates(account || undefined);
  const sync = useSyncTemplates();
  const can = useCan();
  return (
    <>
      <div className="with-action">
        <h1>Templates</h1>
        <button
          type="button"
          hidden={!can('syncTemplates')}
          onClick={() => sync.mutate(account)}
          disabled={sync.isPending || account === ''}
        >
          {sync.isPending ? 'Syncing…' : 'Sync'}
        </button>
      </div>
      <p className="muted">
        Review webhooks keep templates up to date; Sync fetches the number&apos;s templates from the upstream
        network again.
      </p>
      {sync.isError && <ErrorMessage error={sync.error} />}
      {sync.isSuccess && (
        <p role="status">
          Synced {sync.data.templates.length} templates
          {sync.data.webhooks_subscribed
            ? ''
            : '; the webhook subscription failed and is tried again next time'}
          .
        </p>
      )}
      <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label="Pick a number">
        <label>
          Number
          <select value={account} onChange={(e) => setAccount(e.target.value)}>
            <AccountOptions accounts={accounts.data} />
          </select>
        </label>
      </form>
      <QueryState query={templates} isEmpty={(rows) => rows.length === 0} empty={<p>No templates yet.</p>}>
        {(rows) => <DataTable caption="Templates" columns={COLUMNS} rows={rows} rowKey={(t) => t.id} />}
      </QueryState>
      {can('submitTemplate') && <TemplateBuilder key={account} account={account} />}
    </>
  );
}

interface Component {
  type: string;
  format?: string;
  text?: string;
  buttons?: Array<{ type: string; text?: string }>;
}

/** One template: its components, placeholders, and the header's sample media. */
export function TemplateScreen() {
  const { accountId = '', id = '' } = useParams();
  const templates = useTemplates(accountId);
  return (
    <QueryState query={templates} empty={null}>
      {(rows) => {
        const t = rows.find((r) => r.id === id);
        if (!t) return <p role="alert">No such template on this number.</p>;
        const shape = shapeOf(t);
        return (
          <div className="stack">
            <h1>
              Template {t.name} ({t.language})
            </h1>
            <dl className="facts card">
              <dt>Status</dt>
              <dd>
                <TemplateStatusBadge status={t.status} />
              </dd>
              {t.status === 'REJECTED' && (
                <>
                  <dt>Rejection reason</dt>
                  <dd>{rejectionText(t)}</dd>
                </>
              )}
              <dt>Category</dt>
              <dd>{t.category}</dd>
              <dt>Placeholders</dt>
              <dd>
                {shape.headerPlaceholders} in the header, {shape.bodyPlaceholders} in the body
              </dd>
              <dt>Header sample media</dt>
              <dd>
                {t.header_sample_media_url ? (
                  <a href={t.header_sample_media_url} rel="noreferrer noopener" target="_blank">
                    {t.header_sample_media_url}
                  </a>
                ) : (
                  'none'
                )}
              </dd>
            </dl>
            {(t.components as Component[]).map((c, i) => (
              <section key={i} className="card stack" aria-label={`${c.type} component`}>
                <h2>
                  {c.type}
                  {c.format ? ` (${c.format})` : ''}
                </h2>
                {c.text && <p className="preview">{c.text}</p>}
                {c.buttons && (
                  <ul>
                    {c.buttons.map((b, j) => (
                      <li key={j}>
                        {b.type}: {b.text}
                      </li>
                    ))}
                  </ul>
                )}
              </section>
            ))}
          </div>
        );
      }}
    </QueryState>
  );
}
