import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { useChannelAccounts } from '../api/numbers';
import { useSubmitTemplate, useSyncTemplates, useTemplates, type Template } from '../api/templates';
import { DataTable, type Column } from '../components/data-table';
import { ErrorMessage, QueryState } from '../components/query-state';
import { StatusBadge } from '../components/status-badge';
import { shapeOf } from '../components/template-fields';
import { AccountOptions } from '../components/account-options';
import { useCan } from '../api/session';

/** The number the template screens show: the one picked, else the first. */
function useAccount(): [string, (id: string) => void, ReturnType<typeof useChannelAccounts>] {
  const accounts = useChannelAccounts();
  const [picked, setPicked] = useState('');
  return [picked || accounts.data?.[0]?.channel_account_id || '', setPicked, accounts];
}

const COLUMNS: Column<Template>[] = [
  { header: 'Name', cell: (t) => <Link to={`/templates/${t.channel_account_id}/${t.id}`}>{t.name}</Link> },
  { header: 'Language', cell: (t) => t.language },
  { header: 'Status', cell: (t) => <StatusBadge status={t.status} /> },
  { header: 'Category', cell: (t) => t.category },
  { header: 'Header', cell: (t) => t.header_format ?? 'none' },
  { header: 'Quality', cell: (t) => (t.flag ? `Flagged${t.flag.reason ? `: ${t.flag.reason}` : ''}` : 'OK') },
];

function SubmitTemplate({ account }: { account: string }) {
  const submit = useSubmitTemplate();
  const can = useCan();
  const [name, setName] = useState('');
  const [language, setLanguage] = useState('en_US');
  const [category, setCategory] = useState('UTILITY');
  const [body, setBody] = useState('');
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit.mutate({
      channel_account_id: account,
      name,
      language,
      category,
      components: [{ type: 'BODY', text: body }],
    });
  };
  return (
    <form
      className="card stack"
      onSubmit={onSubmit}
      aria-label="Submit a template"
      hidden={!can('submitTemplate')}
    >
      <h2>Submit a template</h2>
      <label>
        Template name (lower case, digits and _)
        <input required pattern="[a-z0-9_]+" value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        Language code
        <input required value={language} onChange={(e) => setLanguage(e.target.value)} />
      </label>
      <label>
        Category
        <select value={category} onChange={(e) => setCategory(e.target.value)}>
          <option>UTILITY</option>
          <option>MARKETING</option>
          <option>AUTHENTICATION</option>
        </select>
      </label>
      <label>
        Body ({'{{1}}'}, {'{{2}}'}… for placeholders)
        <textarea required rows={4} maxLength={1024} value={body} onChange={(e) => setBody(e.target.value)} />
      </label>
      {submit.isError && <ErrorMessage error={submit.error} />}
      {submit.isSuccess && <p role="status">Submitted for review: {submit.data.status}.</p>}
      <button type="submit" className="primary" disabled={submit.isPending || account === ''}>
        Submit for review
      </button>
    </form>
  );
}

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
      <SubmitTemplate account={account} />
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
                <StatusBadge status={t.status} />
              </dd>
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
