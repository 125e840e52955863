import { useState } from 'react';
import { keywordsOf, type FlowDraft } from './flow-draft';

interface Line {
  from: 'customer' | 'bot' | 'system';
  text: string;
}

/** The conversation the draft plays with these button choices: lines, and the buttons offered now. */
function play(draft: FlowDraft, choices: number[]): { lines: Line[]; offered: string[] } {
  const lines: Line[] = [
    { from: 'customer', text: draft.anyNewConversation ? 'Hi' : (keywordsOf(draft)[0] ?? '(keyword)') },
  ];
  const byId = new Map(draft.steps.map((s) => [s.id, s]));
  let id = draft.steps[0]?.id;
  let chosen = 0;
  // A bound on the steps walked, for a draft that loops without waiting (the editor says so beside the steps).
  for (let walked = 0; walked < 50; walked++) {
    const step = id === undefined ? undefined : byId.get(id);
    if (!step) {
      lines.push({ from: 'system', text: `The flow goes to ${id ?? 'nothing'}, which is no step.` });
      return { lines, offered: [] };
    }
    if (step.kind === 'handoff') {
      lines.push({ from: 'system', text: 'Handed off to a person: the conversation waits in the inbox.' });
      return { lines, offered: [] };
    }
    if (step.kind === 'end') {
      lines.push({ from: 'system', text: 'The flow ended.' });
      return { lines, offered: [] };
    }
    lines.push({ from: 'bot', text: step.text || '…' });
    if (step.buttons.length === 0) {
      id = step.next;
      continue;
    }
    const choice = choices[chosen++];
    const button = choice === undefined ? undefined : step.buttons[choice];
    if (!button) return { lines, offered: step.buttons.map((b) => b.title || '…') };
    lines.push({ from: 'customer', text: button.title });
    id = button.target;
  }
  lines.push({ from: 'system', text: 'The flow keeps sending without waiting for a reply.' });
  return { lines, offered: [] };
}

/** Plays the draft's conversation: the customer's keyword, the flow's messages, its buttons to click. */
export function FlowPreview({ draft }: { draft: FlowDraft }) {
  const [choices, setChoices] = useState<number[]>([]);
  const { lines, offered } = play(draft, choices);
  return (
    <section className="card stack" aria-label="Conversation preview">
      <div className="with-action">
        <h3>Preview</h3>
        <button type="button" className="small" onClick={() => setChoices([])}>
          Restart the preview
        </button>
      </div>
      <ol className="thread flow-preview" aria-label="Preview conversation">
        {lines.map((line, i) => (
          <li
            key={i}
            className={
              line.from === 'system'
                ? 'muted small'
                : `bubble ${line.from === 'customer' ? 'bubble-inbound' : 'bubble-outbound'}`
            }
          >
            <span className="sr-only">
              {line.from === 'customer' ? 'Customer: ' : line.from === 'bot' ? 'Flow: ' : ''}
            </span>
            <span className="text">{line.text}</span>
          </li>
        ))}
      </ol>
      {offered.length > 0 && (
        <div className="with-action" role="group" aria-label="Reply as the customer">
          {offered.map((title, i) => (
            <button key={i} type="button" className="small" onClick={() => setChoices([...choices, i])}>
              {title}
            </button>
          ))}
        </div>
      )}
    </section>
  );
}
