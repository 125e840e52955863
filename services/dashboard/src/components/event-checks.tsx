import { useState } from 'react';
import { WEBHOOK_EVENTS, type WebhookEvent } from '../api/webhooks';

export interface EventChoice {
  all: boolean;
  setAll: (all: boolean) => void;
  events: WebhookEvent[];
  toggle: (event: WebhookEvent) => void;
  /** The filter to send: null for every event. */
  value: () => WebhookEvent[] | null;
}

/** The state of an event filter: every event, or those checked. */
export function useEventChoice(initial: WebhookEvent[] | null): EventChoice {
  const [all, setAll] = useState(initial === null);
  const [events, setEvents] = useState<WebhookEvent[]>(initial ?? []);
  return {
    all,
    setAll,
    events,
    toggle: (event) =>
      setEvents((current) =>
        current.includes(event) ? current.filter((e) => e !== event) : [...current, event],
      ),
    value: () => (all ? null : events),
  };
}

/** "All events", or a checkbox per event (webhook.test always goes, so it is not offered). */
export function EventChecks({ legend, choice }: { legend: string; choice: EventChoice }) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      <label className="inline">
        <input type="checkbox" checked={choice.all} onChange={(e) => choice.setAll(e.target.checked)} /> All
        events
      </label>
      {!choice.all && (
        <div className="checks">
          {WEBHOOK_EVENTS.filter((e) => e !== 'webhook.test').map((event) => (
            <label key={event} className="inline">
              <input
                type="checkbox"
                checked={choice.events.includes(event)}
                onChange={() => choice.toggle(event)}
              />{' '}
              {event}
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}
