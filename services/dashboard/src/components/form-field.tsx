import { useId, type ReactElement, cloneElement } from 'react';

/**
 * A labelled control with its error next to it: the control gets `aria-invalid` and is described by the message,
 * so a screen reader reads the error with the field.
 */
export function FormField(props: {
  label: string;
  error?: string;
  hint?: string;
  children: ReactElement<Record<string, unknown>>;
}) {
  const id = useId();
  const described = [props.hint ? `${id}-hint` : '', props.error ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div className="field">
      <label>
        {props.label}
        {cloneElement(props.children, {
          'aria-invalid': props.error ? true : undefined,
          'aria-describedby': described || undefined,
        })}
      </label>
      {props.hint && (
        <span id={`${id}-hint`} className="muted small">
          {props.hint}
        </span>
      )}
      {props.error && (
        <span id={`${id}-error`} className="error field-error">
          {props.error}
        </span>
      )}
    </div>
  );
}
