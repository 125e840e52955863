import Joi from 'joi';
import type { Router } from 'express';
import type { SandboxDeps } from '../deps';
import { digitsOnly } from '../ids';
import { resetState, type SendRecord, type Settings } from '../state';
import { validateControl } from './validate';

type Query = Record<string, string | undefined>;

function matchingSends(sends: SendRecord[], query: Query): SendRecord[] {
  const to = query.to === undefined ? undefined : digitsOnly(query.to);
  return sends.filter(
    (s) =>
      (to === undefined || s.wa_id === to) &&
      (query.user_id === undefined || s.user_id === query.user_id) &&
      (query.phone_number_id === undefined || s.phone_number_id === query.phone_number_id) &&
      (query.result === undefined || s.result === query.result),
  );
}

interface SettingsInput {
  webhook_url?: string;
  app_secret?: string;
  status_delays_ms?: number[];
  default_mps?: number;
  fault_patterns?: boolean;
  graph_version?: string;
}

const settingsSchema = Joi.object<SettingsInput>({
  webhook_url: Joi.string().uri({ scheme: ['http', 'https'] }),
  app_secret: Joi.string().min(1),
  status_delays_ms: Joi.array().items(Joi.number().integer().min(0)).max(3),
  default_mps: Joi.number().integer().min(0),
  fault_patterns: Joi.boolean(),
  graph_version: Joi.string().pattern(/^v\d+\.\d+$/),
});

/** The settings in the names `PUT /_sandbox/config` takes, without the secret. */
function visibleSettings(settings: Settings): Record<string, unknown> {
  return {
    webhook_url: settings.webhookUrl,
    status_delays_ms: settings.statusDelaysMs,
    default_mps: settings.defaultMps,
    fault_patterns: settings.faultPatterns,
    default_waba_id: settings.defaultWabaId,
    default_display_phone_number: settings.defaultDisplayPhoneNumber,
    graph_version: settings.graphVersion,
  };
}

/** `/_sandbox/sends`, `/webhooks`, `/read-receipts`, `/subscriptions`, `/config` and `/state`: what the sandbox saw and did. */
export function recordsRoutes(router: Router, deps: SandboxDeps): void {
  const { state, timers, config } = deps;

  router.get('/sends', (req, res) => {
    res.json({ data: matchingSends(state.sends, req.query as Query) });
  });

  router.get('/sends/count', (req, res) => {
    const sends = matchingSends(state.sends, req.query as Query);
    const accepted = sends.filter((s) => s.result === 'accepted').length;
    res.json({ count: sends.length, accepted, rejected: sends.length - accepted });
  });

  router.get('/webhooks', (req, res) => {
    const kind = typeof req.query.kind === 'string' ? req.query.kind : undefined;
    res.json({ data: state.webhooks.filter((w) => kind === undefined || w.kind.startsWith(kind)) });
  });

  router.get('/read-receipts', (req, res) => {
    const number = typeof req.query.phone_number_id === 'string' ? req.query.phone_number_id : undefined;
    res.json({
      data: state.readReceipts.filter((r) => number === undefined || r.phone_number_id === number),
    });
  });

  router.get('/subscriptions', (_req, res) => {
    res.json({ data: [...state.subscriptions.values()] });
  });

  router.get('/config', (_req, res) => {
    res.json(visibleSettings(state.settings));
  });

  router.put('/config', (req, res) => {
    const input = validateControl(settingsSchema, req.body);
    const { settings } = state;
    settings.webhookUrl = input.webhook_url ?? settings.webhookUrl;
    settings.appSecret = input.app_secret ?? settings.appSecret;
    settings.statusDelaysMs = input.status_delays_ms ?? settings.statusDelaysMs;
    settings.defaultMps = input.default_mps ?? settings.defaultMps;
    settings.faultPatterns = input.fault_patterns ?? settings.faultPatterns;
    settings.graphVersion = input.graph_version ?? settings.graphVersion;
    res.json(visibleSettings(settings));
  });

  // Pending status reports and retries stop too, so nothing from before the reset reaches the receiver.
  router.delete('/state', (_req, res) => {
    timers.cancelAll();
    resetState(state, config);
    res.status(204).end();
  });
}
