import Joi from 'joi';
import type { Router } from 'express';
import { ulid } from 'ulidx';
import { validateControl } from '../control/validate';
import type { SandboxDeps } from '../deps';
import { controlError } from '../graph-errors';
import { compileToMatcher, type FaultMode, type FaultRule } from './fault-rule';

interface FaultInput {
  match: { to?: string; phone_number_id?: string };
  error_code?: number;
  mode: FaultMode;
  times?: number;
  delay_ms: number;
  http_status?: number;
  drop_answer?: boolean;
  held?: boolean;
}

const faultSchema = Joi.object<FaultInput>({
  match: Joi.object({ to: Joi.string().min(1), phone_number_id: Joi.string().min(1) }).default({}),
  error_code: Joi.number().integer().min(1),
  mode: Joi.string().valid('sync', 'status').default('sync'),
  times: Joi.number().integer().min(1),
  delay_ms: Joi.number().integer().min(0).max(120_000).default(0),
  http_status: Joi.number().integer().min(200).max(599),
  drop_answer: Joi.boolean(),
  held: Joi.boolean(),
})
  .or('error_code', 'delay_ms', 'drop_answer', 'held')
  .without('drop_answer', 'error_code');

/**
 * `/_sandbox/faults`: rules that make matching sends fail (at once or by a failed status), answer slowly, or be
 * accepted and then lose their answer (`drop_answer`: the connection is reset `delay_ms` after the acceptance).
 */
export function faultsRoutes(router: Router, deps: SandboxDeps): void {
  const { state } = deps;

  router.post('/faults', (req, res) => {
    const input = validateControl(faultSchema, req.body);
    if (input.match.to !== undefined) {
      try {
        compileToMatcher(input.match.to);
      } catch {
        throw controlError(`match.to is not a valid regular expression: ${input.match.to}`);
      }
    }
    const rule: FaultRule = {
      id: `flt_${ulid()}`,
      match: input.match,
      error_code: input.error_code,
      // A held message is dropped by a status report, never by the answer.
      mode: input.held === true && input.error_code !== undefined ? 'status' : input.mode,
      remaining: input.times ?? null,
      applied: 0,
      delay_ms: input.delay_ms,
      http_status: input.http_status,
      drop_answer: input.drop_answer,
      held: input.held,
      created_at: new Date().toISOString(),
    };
    state.faults.push(rule);
    res.status(201).json(rule);
  });

  router.get('/faults', (_req, res) => {
    res.json({ data: state.faults });
  });

  router.delete('/faults', (_req, res) => {
    state.faults.length = 0;
    res.status(204).end();
  });

  router.delete('/faults/:id', (req, res) => {
    const index = state.faults.findIndex((rule) => rule.id === req.params.id);
    if (index < 0) throw controlError(`no fault ${req.params.id}`, 404);
    state.faults.splice(index, 1);
    res.status(204).end();
  });
}
