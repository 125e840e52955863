import { useState } from 'react';
import type { TemplateShape } from './template-fields';

/** An input per placeholder of a template's part (`Body {{1}}`, `Body {{2}}`…), each required. */
function Placeholders(props: {
  label: string;
  count: number;
  values: string[];
  onChange: (v: string[]) => void;
}) {
  return (
    <>
      {Array.from({ length: props.count }, (_, i) => (
        <label key={i}>
          {props.label} {`{{${i + 1}}}`}
          <input
            required
            value={props.values[i] ?? ''}
            onChange={(e) => {
              const next = [...props.values];
              next[i] = e.target.value;
              props.onChange(next);
            }}
          />
        </label>
      ))}
    </>
  );
}

/** What is typed for a template's placeholders and header media, emptied when another template is picked. */
export function useTemplateValues() {
  const [header, setHeader] = useState<string[]>([]);
  const [body, setBody] = useState<string[]>([]);
  const [mediaUrl, setMediaUrl] = useState('');
  const reset = () => {
    setHeader([]);
    setBody([]);
  };
  return { values: { header, body, mediaUrl }, setHeader, setBody, setMediaUrl, reset };
}

/** A template's body text, its header media URL when it has one, and an input per placeholder. */
export function TemplateInputs({
  shape,
  state,
}: {
  shape: TemplateShape | undefined;
  state: ReturnType<typeof useTemplateValues>;
}) {
  if (!shape) return null;
  return (
    <>
      {shape.bodyText && <p className="muted preview">{shape.bodyText}</p>}
      {shape.headerMedia && (
        <label>
          Header {shape.headerMedia.toLowerCase()} URL
          <input
            type="url"
            required
            value={state.values.mediaUrl}
            onChange={(e) => state.setMediaUrl(e.target.value)}
          />
        </label>
      )}
      <Placeholders
        label="Header"
        count={shape.headerPlaceholders}
        values={state.values.header}
        onChange={state.setHeader}
      />
      <Placeholders
        label="Body"
        count={shape.bodyPlaceholders}
        values={state.values.body}
        onChange={state.setBody}
      />
    </>
  );
}
