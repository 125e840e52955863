import type { Request, Router } from 'express';
import type { SandboxDeps } from '../deps';
import { requireToken } from '../graph-auth';
import { GraphError } from '../graph-errors';
import {
  TEMPLATE_CATEGORIES,
  type Template,
  type TemplateCategory,
  type TemplateComponent,
} from './template';
import { pageOf } from './template-paging';

type Query = Record<string, string | undefined>;

function pageUrl(req: Request, query: Query, cursor: { after?: string; before?: string }): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && key !== 'after' && key !== 'before') params.set(key, value);
  }
  for (const [key, value] of Object.entries(cursor)) if (value !== undefined) params.set(key, value);
  return `${req.protocol}://${req.get('host')}${req.baseUrl}${req.path}?${params.toString()}`;
}

function filtered(list: Template[], query: Query): Template[] {
  return list.filter(
    (t) =>
      (query.name === undefined || t.name.includes(query.name)) &&
      (query.status === undefined || t.status === query.status.toUpperCase()) &&
      (query.category === undefined || t.category === query.category.toUpperCase()) &&
      (query.language === undefined || t.language === query.language),
  );
}

function isComponent(value: unknown): value is TemplateComponent {
  return typeof value === 'object' && value !== null && typeof (value as TemplateComponent).type === 'string';
}

function parseNewTemplate(body: unknown): {
  name: string;
  language: string;
  category: TemplateCategory;
  components: TemplateComponent[];
} {
  const input = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (typeof input.name !== 'string' || !/^[a-z0-9_]{1,512}$/.test(input.name)) {
    throw GraphError.of(100, 'Param name must be lower-case letters, digits and underscores.');
  }
  if (typeof input.language !== 'string' || input.language === '')
    throw GraphError.of(100, 'Param language is required.');
  const category = typeof input.category === 'string' ? input.category.toUpperCase() : '';
  if (!TEMPLATE_CATEGORIES.includes(category as TemplateCategory)) {
    throw GraphError.of(100, `Param category must be one of {${TEMPLATE_CATEGORIES.join(', ')}}.`);
  }
  const components: unknown = input.components;
  if (!Array.isArray(components) || !components.every(isComponent)) {
    throw GraphError.of(100, 'Param components must be an array of objects with a type.');
  }
  return { name: input.name, language: input.language, category: category as TemplateCategory, components };
}

/** `GET` (paged) and `POST` on `/{version}/{waba_id}/message_templates`. */
export function templatesRoutes(router: Router, deps: SandboxDeps): void {
  const { templates } = deps.state;

  router.get('/:wabaId/message_templates', (req, res) => {
    requireToken(req);
    const query = req.query as Query;
    const page = pageOf(filtered(templates.list(req.params.wabaId), query), query);
    if (page.data.length === 0) {
      res.json({ data: [] });
      return;
    }
    res.json({
      data: page.data,
      paging: {
        cursors: { before: page.before, after: page.after },
        ...(page.hasNext ? { next: pageUrl(req, query, { after: page.after }) } : {}),
        ...(page.hasPrevious ? { previous: pageUrl(req, query, { before: page.before }) } : {}),
      },
    });
  });

  router.post('/:wabaId/message_templates', (req, res) => {
    requireToken(req);
    const input = parseNewTemplate(req.body);
    const created = templates.create(req.params.wabaId, { ...input, status: 'PENDING' });
    if (created === undefined) {
      throw new GraphError(
        100,
        400,
        'Invalid parameter',
        `Content in ${input.language} already exists for ${input.name}.`,
        {
          error_subcode: 2388024,
        },
      );
    }
    res.json({ id: created.id, status: created.status, category: created.category });
  });
}
