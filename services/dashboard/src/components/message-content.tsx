import type { MessageLog } from '@bm/client';

type Content = MessageLog['content'];
type Component = Extract<Content, { type: 'template' }>['components'][number];
type Parameter = Record<string, unknown>;

const parametersOf = (c: Component): Parameter[] => {
  const list = (c as { parameters?: unknown }).parameters;
  return Array.isArray(list) ? (list as Parameter[]) : [];
};

/** One parameter as sent: its text, a media item by link or id, or a button's payload. */
export function parameterText(p: Parameter): string {
  const type = typeof p.type === 'string' ? p.type : '';
  const value = p[type];
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) {
    const media = value as Record<string, unknown>;
    const ref = media.link ?? media.id;
    if (typeof ref === 'string') return `${type}: ${ref}`;
  }
  if (typeof p.payload === 'string') return `payload: ${p.payload}`;
  return JSON.stringify(p);
}

/** A message's content in one line, for a list cell: the text, or the template with its parameters. */
export function contentSummary(content: Content): string {
  switch (content.type) {
    case 'text':
      return content.text;
    case 'template': {
      const values = content.components.flatMap((c) => parametersOf(c).map(parameterText));
      return `${content.name}${values.length > 0 ? `: ${values.join(', ')}` : ''}`;
    }
    case 'interactive':
      return 'Interactive message';
  }
}

const componentName = (c: Component): string => {
  const extra = c as { sub_type?: unknown; index?: unknown };
  if (c.type !== 'button') return c.type;
  const index = typeof extra.index === 'string' || typeof extra.index === 'number' ? ` ${extra.index}` : '';
  return `button${index}${typeof extra.sub_type === 'string' ? ` (${extra.sub_type})` : ''}`;
};

/** What was sent, in full: the text, or the template's name, language and each component's parameters. */
export function MessageContentView({ content }: { content: Content }) {
  if (content.type === 'text') return <p className="preview">{content.text}</p>;
  if (content.type === 'interactive') {
    return <pre className="preview">{JSON.stringify(content.interactive, null, 2)}</pre>;
  }
  return (
    <dl className="facts">
      <dt>Template</dt>
      <dd>{content.name}</dd>
      <dt>Language</dt>
      <dd>{content.language}</dd>
      {content.components.length === 0 ? (
        <>
          <dt>Parameters</dt>
          <dd>None</dd>
        </>
      ) : (
        content.components.map((c, i) => (
          <div key={i} role="group" aria-label={`Template ${componentName(c)}`}>
            <dt>{componentName(c)}</dt>
            <dd>
              <ol className="parameters">
                {parametersOf(c).map((p, j) => (
                  <li key={j}>{parameterText(p)}</li>
                ))}
              </ol>
            </dd>
          </div>
        ))
      )}
    </dl>
  );
}
