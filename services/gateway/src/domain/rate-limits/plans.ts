import Joi from 'joi';

export interface Plan {
  name: string;
  /** Requests allowed per window; null is unlimited. */
  limit: number | null;
  windowSeconds: number;
}

const plansSchema = Joi.object().pattern(
  Joi.string().pattern(/^[a-z0-9][a-z0-9_-]{0,39}$/),
  Joi.object({
    limit: Joi.number().integer().min(1).allow(null).required(),
    window_seconds: Joi.number().integer().min(1).max(3600).required(),
  }),
);

/** Parses the RATE_LIMIT_PLANS configuration; the default plan must be among them. */
export function parsePlans(json: string, defaultPlan: string): Map<string, Plan> {
  const parsed: unknown = JSON.parse(json);
  const { value, error } = plansSchema.validate(parsed) as {
    value: Record<string, { limit: number | null; window_seconds: number }>;
    error?: Error;
  };
  if (error) throw new Error(`RATE_LIMIT_PLANS is invalid: ${error.message}`);
  const plans = new Map<string, Plan>();
  for (const [name, p] of Object.entries(value)) {
    plans.set(name, { name, limit: p.limit, windowSeconds: p.window_seconds });
  }
  if (!plans.has(defaultPlan)) throw new Error(`DEFAULT_PLAN ${defaultPlan} is not in RATE_LIMIT_PLANS`);
  return plans;
}
