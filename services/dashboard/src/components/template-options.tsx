import type { Template } from '../api/templates';

/** An account's templates as the options of a select, each by name and language. */
export function TemplateOptions({ templates }: { templates: Template[] | undefined }) {
  return (
    <>
      {templates?.map((t) => (
        <option key={t.id} value={t.id}>
          {t.name} ({t.language})
        </option>
      ))}
    </>
  );
}
