import type { ReactNode } from 'react';

/** A required, labelled pick among the given options. */
export function PickField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  return (
    <label>
      {props.label}
      <select value={props.value} onChange={(e) => props.onChange(e.target.value)} required>
        {props.children}
      </select>
    </label>
  );
}
