import { useMemo, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import {
  useCreateCampaign,
  useForecast,
  type CampaignPlan,
  type CreateCampaignRequest,
} from '../api/campaigns';
import { newIdempotencyKey } from '../api/messages';
import { useTemplatePick } from '../api/templates';
import { DataTable, type Column } from '../components/data-table';
import { phone, when } from '../components/format';
import { ErrorMessage } from '../components/query-state';
import { parseSheet, phoneDigits, type SheetRow } from '../components/recipient-rows';
import { shapeOf } from '../components/template-fields';
import { ScheduleFields, useSchedule } from '../components/schedule-fields';
import { AccountOptions } from '../components/account-options';
import { PickField } from '../components/pick-field';
import { TemplateOptions } from '../components/template-options';

/** Where a placeholder's value comes from: a column of the list, or one text for everyone. */
interface Mapping {
  column: string;
  text: string;
}
const FIXED = '';

const BAD_COLUMNS: Column<SheetRow>[] = [
  { header: 'Line', cell: (r) => r.line },
  { header: 'Phone', cell: (r) => r.phone },
  { header: 'Reason', cell: (r) => r.problem },
];

/** The value of placeholder {{position}} for a row, by its mapping. */
const valueOf = (row: SheetRow, m: Mapping | undefined) =>
  m && m.column !== FIXED ? (row.cells[m.column] ?? '') : (m?.text ?? '');

function Forecast({ plan }: { plan: CampaignPlan }) {
  const { capacity } = plan;
  return (
    <section className="card stack" aria-labelledby="forecast-heading" data-testid="forecast">
      <h2 id="forecast-heading">Forecast</h2>
      <dl className="facts">
        <dt>Recipients</dt>
        <dd data-testid="forecast-recipients">{plan.requested_count}</dd>
        <dt>Opted out, skipped</dt>
        <dd data-testid="forecast-opted-out">{plan.opted_out_count}</dd>
        <dt>Estimated cost</dt>
        <dd data-testid="forecast-cost">{`${plan.estimated_cost} ${plan.cost_currency}`}</dd>
        <dt>Capacity now</dt>
        <dd>
          {capacity.daily_limit === null
            ? 'unlimited'
            : `${capacity.remaining ?? 0} of ${capacity.daily_limit} left today (${capacity.used_today} used)`}
        </dd>
        <dt>Throughput</dt>
        <dd>{plan.throughput_per_second} messages a second</dd>
        <dt>Expected finish</dt>
        <dd>{when(plan.estimated_finish_at)}</dd>
      </dl>
      {plan.split && <p>Over today&apos;s capacity: the list is sent in {plan.parts.length} daily parts.</p>}
      <table aria-label="Planned parts">
        <thead>
          <tr>
            <th scope="col">Part</th>
            <th scope="col">Recipients</th>
            <th scope="col">Planned start</th>
          </tr>
        </thead>
        <tbody>
          {plan.parts.map((p) => (
            <tr key={p.part_number}>
              <td>{p.part_number}</td>
              <td>{p.requested_count}</td>
              <td>{p.planned_at ? when(p.planned_at) : 'now'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/**
 * A campaign from a CSV file or pasted rows: the list is parsed and checked in the browser (bad rows shown and left
 * out), each placeholder mapped to a column or a fixed text, a preview, the dry-run forecast, then create.
 */
export function NewCampaignScreen() {
  const navigate = useNavigate();
  const { accounts, account, setAccountId, templates, template, setTemplateId } = useTemplatePick();
  const shape = useMemo(() => (template ? shapeOf(template) : undefined), [template]);
  const positions = (shape?.headerPlaceholders ?? 0) + (shape?.bodyPlaceholders ?? 0);
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [mappings, setMappings] = useState<Record<number, Mapping>>({});
  const [mediaUrl, setMediaUrl] = useState('');
  const [split, setSplit] = useState(false);
  const schedule = useSchedule();
  const forecast = useForecast();
  const create = useCreateCampaign();
  const [key] = useState(newIdempotencyKey);

  const sheet = useMemo(() => (text.trim() ? parseSheet(text) : null), [text]);
  const mappingOf = (position: number): Mapping =>
    mappings[position] ?? {
      column:
        sheet?.columns.find((c) => c.toLowerCase() === `var${position}` || c === String(position)) ?? FIXED,
      text: '',
    };
  // A row whose mapped column is empty for it cannot be sent either: it is shown with the others.
  const rows = useMemo(
    () =>
      (sheet?.rows ?? []).map((row) => {
        if (row.problem) return row;
        for (let p = 1; p <= positions; p += 1) {
          const m = mappingOf(p);
          if (m.column !== FIXED && !row.cells[m.column]) {
            return { ...row, problem: `no value for {{${p}}} (column ${m.column})` };
          }
        }
        return row;
      }),
    [sheet, positions, mappings],
  );
  const good = rows.filter((r) => r.problem === null);
  const bad = rows.filter((r) => r.problem !== null);

  const request = (): CreateCampaignRequest => ({
    channel_account_id: account,
    message_type: 'template',
    template_name: template?.name ?? '',
    template_language: template?.language,
    campaign_name: name || null,
    recipients: good.map((row) => ({
      phone: `+${phoneDigits(row.phone)}`,
      ...(row.name ? { name: row.name } : {}),
      ...(positions > 0
        ? {
            variables: Object.fromEntries(
              Array.from({ length: positions }, (_, i) => [String(i + 1), valueOf(row, mappingOf(i + 1))]),
            ) as never,
          }
        : {}),
    })),
    split_across_days: split,
    ...(shape?.headerMedia && mediaUrl
      ? { header_media: { type: shape.headerMedia.toLowerCase() as 'image', link: mediaUrl } }
      : {}),
    ...schedule.request,
  });

  const preview = (row: SheetRow) => {
    const offset = shape?.headerPlaceholders ?? 0;
    return (shape?.bodyText ?? '').replace(/\{\{\s*(\d+)\s*\}\}/g, (_, n: string) =>
      valueOf(row, mappingOf(offset + Number(n))),
    );
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(
      { body: request(), idempotencyKey: key },
      { onSuccess: (created) => void navigate(`/campaigns/${created.campaign_id}`) },
    );
  };
  const ready = account !== '' && template !== undefined && good.length > 0;

  /** Another template: the placeholders filled for the previous one no longer apply. */
  const pickTemplate = (id: string) => {
    setTemplateId(id);
    setMappings({});
  };
  return (
    <>
      <h1>New campaign</h1>
      <form onSubmit={submit} className="stack" aria-label="New campaign">
        <div className="grid">
          <section className="card stack" aria-labelledby="what-heading">
            <h2 id="what-heading">What to send</h2>
            <label>
              Campaign name
              <input value={name} maxLength={255} onChange={(e) => setName(e.target.value)} />
            </label>
            <PickField label="From number" value={account} onChange={setAccountId}>
              <AccountOptions accounts={accounts.data} />
            </PickField>
            <PickField label="Template" value={template?.id ?? ''} onChange={pickTemplate}>
              <TemplateOptions templates={templates.data} />
            </PickField>
            {shape?.bodyText && <p className="muted preview">{shape.bodyText}</p>}
            {shape?.headerMedia && (
              <label>
                Header {shape.headerMedia.toLowerCase()} URL (default: the template&apos;s sample)
                <input type="url" value={mediaUrl} onChange={(e) => setMediaUrl(e.target.value)} />
              </label>
            )}
            {Array.from({ length: positions }, (_, i) => {
              const position = i + 1;
              const m = mappingOf(position);
              const set = (next: Partial<Mapping>) =>
                setMappings({ ...mappings, [position]: { ...m, ...next } });
              return (
                <fieldset key={position}>
                  <legend>{`Placeholder {{${position}}}`}</legend>
                  <label>
                    {`Value of {{${position}}} from`}
                    <select value={m.column} onChange={(e) => set({ column: e.target.value })}>
                      <option value={FIXED}>The same text for everyone</option>
                      {sheet?.columns.map((c) => (
                        <option key={c} value={c}>
                          Column {c}
                        </option>
                      ))}
                    </select>
                  </label>
                  {m.column === FIXED && (
                    <label>
                      {`Text of {{${position}}}`}
                      <input required value={m.text} onChange={(e) => set({ text: e.target.value })} />
                    </label>
                  )}
                </fieldset>
              );
            })}
          </section>
          <section className="card stack" aria-labelledby="who-heading">
            <h2 id="who-heading">Recipients</h2>
            <label>
              CSV file (a header line with phone, name and variable columns)
              <input
                type="file"
                accept=".csv,text/csv,text/plain"
                onChange={(e) => void e.target.files?.[0]?.text().then(setText)}
              />
            </label>
            <label>
              Or paste rows
              <textarea
                rows={6}
                value={text}
                placeholder={'phone,name,var1\n+14155550123,Ann,ORD-1'}
                onChange={(e) => setText(e.target.value)}
              />
            </label>
            {sheet && (
              <p role="status" data-testid="rows-summary">
                {good.length} rows ready, {bad.length} left out
              </p>
            )}
            {bad.length > 0 && (
              <div className="stack">
                <h3>Rows left out</h3>
                <DataTable caption="Rows left out" columns={BAD_COLUMNS} rows={bad} rowKey={(r) => r.line} />
              </div>
            )}
          </section>
        </div>
        {good.length > 0 && shape && (
          <section className="card stack" aria-labelledby="preview-heading">
            <h2 id="preview-heading">Preview</h2>
            <ul className="plain" aria-label="Preview of the first messages">
              {good.slice(0, 3).map((row) => (
                <li key={row.line}>
                  <strong>{phone(phoneDigits(row.phone) ?? row.phone)}</strong>
                  {row.name ? ` (${row.name})` : ''}: {preview(row)}
                </li>
              ))}
            </ul>
          </section>
        )}
        <section className="card stack" aria-labelledby="when-heading">
          <h2 id="when-heading">When</h2>
          <label className="inline">
            <input type="checkbox" checked={split} onChange={(e) => setSplit(e.target.checked)} /> Split
            across days when the list exceeds today&apos;s capacity
          </label>
          <ScheduleFields schedule={schedule} />
          <div className="actions">
            <button
              type="button"
              disabled={!ready || forecast.isPending}
              onClick={() => forecast.mutate(request())}
            >
              Forecast
            </button>
            <button type="submit" className="primary" disabled={!ready || create.isPending}>
              Create campaign
            </button>
          </div>
          {forecast.isError && <ErrorMessage error={forecast.error} />}
          {create.isError && <ErrorMessage error={create.error} />}
        </section>
        {forecast.data && <Forecast plan={forecast.data} />}
      </form>
    </>
  );
}
