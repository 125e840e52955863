import type { MessageLog } from '@bm/client';
import { when } from './format';

/** The steps a message went through, each with its time, in order; the error beside a failure. */
export function StatusTimeline({ message }: { message: MessageLog }) {
  const steps: Array<{ label: string; at: string | null }> = [
    { label: message.scheduled_at ? 'scheduled' : 'queued', at: message.created_at },
    ...(message.scheduled_at ? [{ label: 'due', at: message.scheduled_at }] : []),
    { label: 'sent', at: message.sent_at },
    { label: 'delivered', at: message.delivered_at },
    { label: 'read', at: message.read_at },
    ...(message.failed_at ? [{ label: 'failed', at: message.failed_at }] : []),
    ...(message.status === 'cancelled' ? [{ label: 'cancelled', at: null }] : []),
  ];
  return (
    <ol className="timeline" aria-label="Status timeline">
      {steps.map((s) => (
        <li key={s.label} className={s.at || s.label === message.status ? 'done' : 'todo'}>
          <strong>{s.label}</strong> <span className="muted">{s.at ? when(s.at) : 'not yet'}</span>
          {s.label === 'failed' && message.error_message ? (
            <p className="error">{message.error_message}</p>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
