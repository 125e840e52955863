import type { SendMessageRequest } from '@bm/client';
import { useMemo, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useMessage, useSendMessage } from '../api/messages';
import { useTemplatePick } from '../api/templates';
import { ErrorMessage } from '../components/query-state';
import { StatusBadge } from '../components/status-badge';
import { componentsOf, shapeOf } from '../components/template-fields';
import { ScheduleFields, useSchedule } from '../components/schedule-fields';
import { AccountOptions } from '../components/account-options';
import { PickField } from '../components/pick-field';
import { TemplateInputs, useTemplateValues } from '../components/template-inputs';
import { TemplateOptions } from '../components/template-options';
import { useCan } from '../api/session';

/** The acknowledgement, then the message's status as it changes, without a reload. */
function Outcome({ id }: { id: number }) {
  const message = useMessage(id);
  return (
    <section className="card stack" aria-labelledby="outcome-heading">
      <h2 id="outcome-heading">Accepted: message #{id}</h2>
      <p aria-live="polite" data-testid="send-status">
        Status: {message.data ? <StatusBadge status={message.data.status} /> : '…'}
        {message.data?.error_message ? ` · ${message.data.error_message}` : ''}
      </p>
      <Link to={`/messages/${id}`}>Open the message</Link>
    </section>
  );
}

/** Send a text or a template (a field per placeholder, header media when needed), now or at a time in a zone. */
export function SendScreen() {
  const { accounts, account, setAccountId, templates, template, setTemplateId } = useTemplatePick();
  const send = useSendMessage();
  const can = useCan();
  const [to, setTo] = useState('');
  const [kind, setKind] = useState<'template' | 'text'>('template');
  const [text, setText] = useState('');
  const shape = useMemo(() => (template ? shapeOf(template) : undefined), [template]);
  const inputs = useTemplateValues();
  const schedule = useSchedule();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const data: SendMessageRequest['data'] =
      kind === 'text'
        ? { text }
        : {
            name: template?.name ?? '',
            language_code: template?.language,
            ...(shape && componentsOf(shape, inputs.values).length > 0
              ? { components: componentsOf(shape, inputs.values) as never }
              : {}),
          };
    send.mutate({
      channel_account_id: account,
      phone: to,
      message_type: kind,
      data,
      ...schedule.request,
    });
  };

  /** Another template: the placeholders filled for the previous one no longer apply. */
  const pickTemplate = (id: string) => {
    setTemplateId(id);
    inputs.reset();
  };
  return (
    <>
      <h1>Send a message</h1>
      <div className="grid">
        <form onSubmit={submit} className="stack card" aria-label="Send a message">
          <PickField label="From number" value={account} onChange={setAccountId}>
            <AccountOptions accounts={accounts.data} />
          </PickField>
          <label>
            To (phone with country code)
            <input
              type="tel"
              required
              placeholder="+14155550123"
              value={to}
              onChange={(e) => setTo(e.target.value)}
            />
          </label>
          <fieldset>
            <legend>Message type</legend>
            <label className="inline">
              <input
                type="radio"
                name="kind"
                checked={kind === 'template'}
                onChange={() => setKind('template')}
              />{' '}
              Template
            </label>
            <label className="inline">
              <input type="radio" name="kind" checked={kind === 'text'} onChange={() => setKind('text')} />{' '}
              Text (within the 24 h service window)
            </label>
          </fieldset>
          {kind === 'text' ? (
            <label>
              Text
              <textarea
                required
                maxLength={4096}
                rows={4}
                value={text}
                onChange={(e) => setText(e.target.value)}
              />
            </label>
          ) : (
            <>
              <PickField label="Template" value={template?.id ?? ''} onChange={pickTemplate}>
                <TemplateOptions templates={templates.data} />
              </PickField>
              {templates.data?.length === 0 && (
                <p className="empty">This number has no approved templates.</p>
              )}
              <TemplateInputs shape={shape} state={inputs} />
            </>
          )}
          <ScheduleFields schedule={schedule} />
          {send.isError && <ErrorMessage error={send.error} />}
          {can('sendMessage') ? (
            <button type="submit" className="primary" disabled={send.isPending || account === ''}>
              {schedule.later ? 'Schedule' : 'Send'}
            </button>
          ) : (
            <p className="muted">Your role may not send messages.</p>
          )}
        </form>
        {send.data && <Outcome id={send.data.message_log_id} />}
      </div>
    </>
  );
}
