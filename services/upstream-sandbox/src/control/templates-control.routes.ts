import Joi from 'joi';
import type { Router } from 'express';
import type { SandboxDeps } from '../deps';
import { controlError } from '../graph-errors';
import { TEMPLATE_CATEGORIES, TEMPLATE_STATUSES, type TemplateStatus } from '../templates/template';
import type { NewTemplate } from '../templates/template-store';
import { templateStatusEnvelope } from '../webhooks-out/envelopes';
import { validateControl } from './validate';

const templateSchema = Joi.object<NewTemplate>({
  id: Joi.string().pattern(/^\d+$/),
  name: Joi.string().min(1).required(),
  language: Joi.string().min(1).default('en_US'),
  category: Joi.string()
    .uppercase()
    .valid(...TEMPLATE_CATEGORIES)
    .default('UTILITY'),
  status: Joi.string()
    .uppercase()
    .valid(...TEMPLATE_STATUSES)
    .default('APPROVED'),
  components: Joi.array()
    .items(Joi.object({ type: Joi.string().required() }).unknown(true))
    .default([]),
});

const replaceSchema = Joi.object<{ data: NewTemplate[] }>({
  data: Joi.array().items(templateSchema).required(),
});

interface StatusInput {
  status: TemplateStatus;
  reason: string;
  notify: boolean;
}

const statusSchema = Joi.object<StatusInput>({
  status: Joi.string()
    .uppercase()
    .valid(...TEMPLATE_STATUSES)
    .required(),
  reason: Joi.string().default('NONE'),
  notify: Joi.boolean().default(true),
});

/** `/_sandbox/templates`: replace a WABA's templates or change one's status (with its webhook). */
export function templatesControlRoutes(router: Router, deps: SandboxDeps): void {
  const { state, webhooks } = deps;

  router.put('/templates/:wabaId', (req, res) => {
    // Either the list itself or the Graph API's `{ data: [...] }`.
    const body: unknown = Array.isArray(req.body) ? { data: req.body as unknown } : req.body;
    const { data } = validateControl(replaceSchema, body);
    res.json({ data: state.templates.replace(req.params.wabaId, data) });
  });

  router.get('/templates/:wabaId', (req, res) => {
    res.json({ data: state.templates.list(req.params.wabaId) });
  });

  router.patch('/templates/:wabaId/:name/:language', (req, res) => {
    const input = validateControl(statusSchema, req.body);
    const wabaId = req.params.wabaId;
    const template = state.templates.find(wabaId, req.params.name, req.params.language);
    if (template === undefined) {
      throw controlError(`no template ${req.params.name} in ${req.params.language}`, 404);
    }
    template.status = input.status;
    if (input.notify) {
      const ownNumber = [...state.numbers.values()].find(
        (n) => n.waba_id === wabaId && n.webhook_url !== undefined,
      );
      const target = {
        url: ownNumber?.webhook_url ?? state.settings.webhookUrl,
        secret: state.settings.appSecret,
      };
      void webhooks.deliver(
        'template_status',
        target,
        templateStatusEnvelope(wabaId, template, input.reason),
      );
    }
    res.json(template);
  });
}
