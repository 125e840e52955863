import type { Template } from '../api/templates';

/** A required pick among an account's templates, each by name and language. */
export function TemplateSelect(props: {
  templates: Template[] | undefined;
  value: string;
  onChange: (templateId: string) => void;
}) {
  return (
    <label>
      Template
      <select value={props.value} onChange={(e) => props.onChange(e.target.value)} required>
        {props.templates?.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name} ({t.language})
          </option>
        ))}
      </select>
    </label>
  );
}
