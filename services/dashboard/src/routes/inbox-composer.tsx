import { useMemo, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useReply, type Conversation } from '../api/conversations';
import { useApprovedTemplates } from '../api/templates';
import { TemplateInputs, useTemplateValues } from '../components/template-inputs';
import { ErrorMessage } from '../components/query-state';
import { componentsOf, shapeOf } from '../components/template-fields';
import { TemplateOptions } from '../components/template-options';
import { useWindowOpen, WindowCountdown } from '../components/window-countdown';

/** The id `r` focuses: the reply box inside the window, the template picker outside it. */
export const REPLY_BOX_ID = 'reply-box';

/** Outside the service window: an approved template of the conversation's number, with its placeholders. */
function TemplateReply({ c, onEscape }: { c: Conversation; onEscape: (e: KeyboardEvent) => void }) {
  const reply = useReply(c.id);
  const templates = useApprovedTemplates(c.channel_account_id);
  const [templateId, setTemplateId] = useState('');
  const template = templates.data?.find((t) => t.id === templateId) ?? templates.data?.[0];
  const shape = useMemo(() => (template ? shapeOf(template) : undefined), [template]);
  const inputs = useTemplateValues();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!template || !shape) return;
    const components = componentsOf(shape, inputs.values);
    const data = {
      name: template.name,
      language_code: template.language,
      ...(components.length > 0 ? { components: components as never } : {}),
    };
    reply.mutate(
      { message_type: 'template', data },
      {
        onSuccess: inputs.reset,
      },
    );
  };
  const pick = (id: string) => {
    setTemplateId(id);
    inputs.reset();
  };
  return (
    <form
      className="composer stack"
      aria-label="Reply with a template"
      onSubmit={submit}
      onKeyDown={onEscape}
    >
      <p className="window window-closed">
        The 24 h service window is closed: the customer has not written for a day, so only an approved
        template can be sent.
      </p>
      <label>
        Template
        <select id={REPLY_BOX_ID} value={template?.id ?? ''} onChange={(e) => pick(e.target.value)} required>
          <TemplateOptions templates={templates.data} />
        </select>
      </label>
      {templates.data?.length === 0 && <p className="empty">This number has no approved templates.</p>}
      <TemplateInputs shape={shape} state={inputs} />
      {reply.isError && <ErrorMessage error={reply.error} />}
      <button type="submit" className="primary" disabled={reply.isPending || !template}>
        Send template
      </button>
    </form>
  );
}

/** Inside the service window: a text reply, with the time left. Ctrl+Enter sends. */
function TextReply({ c, onEscape }: { c: Conversation; onEscape: (e: KeyboardEvent) => void }) {
  const reply = useReply(c.id);
  const [text, setText] = useState('');
  const send = () => {
    if (text.trim() === '' || reply.isPending) return;
    reply.mutate({ message_type: 'text', data: { text } }, { onSuccess: () => setText('') });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    send();
  };
  const keys = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      send();
    }
  };
  return (
    <form
      className="composer stack"
      aria-label="Reply to the customer"
      onSubmit={submit}
      onKeyDown={onEscape}
    >
      <WindowCountdown openUntil={c.open_until!} />
      <label>
        Reply
        <textarea
          id={REPLY_BOX_ID}
          rows={3}
          maxLength={4096}
          required
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={keys}
          aria-describedby="reply-hint"
        />
      </label>
      <span id="reply-hint" className="muted small">
        Ctrl+Enter sends · Escape leaves the box
      </span>
      {reply.isError && <ErrorMessage error={reply.error} />}
      <button type="submit" className="primary" disabled={reply.isPending}>
        Send reply
      </button>
    </form>
  );
}

/** A composer that knows the window: text with a countdown while it is open, else a template. */
export function Composer({ c, onEscape }: { c: Conversation; onEscape: () => void }) {
  const open = useWindowOpen(c.open_until);
  const escape = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    onEscape();
  };
  return open ? <TextReply c={c} onEscape={escape} /> : <TemplateReply c={c} onEscape={escape} />;
}
