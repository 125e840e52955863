import { newNumericId } from '../ids';
import { seedTemplates } from './seed-templates';
import type { Template, TemplateCategory, TemplateComponent, TemplateStatus } from './template';

export interface NewTemplate {
  name: string;
  language: string;
  category: TemplateCategory;
  components: TemplateComponent[];
  status?: TemplateStatus;
  id?: string;
}

/** The templates of every WABA, in memory. A WABA never set explicitly gets the seed set on first use. */
export class TemplateStore {
  private readonly byWaba = new Map<string, Template[]>();

  constructor(private readonly seed: boolean) {}

  /** The WABA's templates in creation order (the live list: callers may change a template's status). */
  list(wabaId: string): Template[] {
    let templates = this.byWaba.get(wabaId);
    if (templates === undefined) {
      templates = this.seed ? seedTemplates() : [];
      this.byWaba.set(wabaId, templates);
    }
    return templates;
  }

  replace(wabaId: string, templates: NewTemplate[]): Template[] {
    const list = templates.map((t) => this.build(t));
    this.byWaba.set(wabaId, list);
    return list;
  }

  /** Adds a template; undefined when one of that name and language exists already. */
  create(wabaId: string, input: NewTemplate): Template | undefined {
    const list = this.list(wabaId);
    if (list.some((t) => t.name === input.name && t.language === input.language)) return undefined;
    const template = this.build(input);
    list.push(template);
    return template;
  }

  find(wabaId: string, name: string, language: string): Template | undefined {
    return this.list(wabaId).find((t) => t.name === name && t.language === language);
  }

  /** Looks in every WABA the sandbox knows, preferring an approved copy. */
  findAnywhere(name: string, language: string): Template | undefined {
    const matches = [...this.byWaba.values()].flatMap((list) =>
      list.filter((t) => t.name === name && t.language === language),
    );
    return matches.find((t) => t.status === 'APPROVED') ?? matches[0];
  }

  reset(): void {
    this.byWaba.clear();
  }

  private build(input: NewTemplate): Template {
    return {
      id: input.id ?? newNumericId(),
      name: input.name,
      language: input.language,
      status: input.status ?? 'APPROVED',
      category: input.category,
      components: structuredClone(input.components),
    };
  }
}
