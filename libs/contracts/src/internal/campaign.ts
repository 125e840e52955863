import Joi from 'joi';
import { internalEndpoint } from './endpoint';
import { userIdSchema } from '../schemas/customer-address';
import { isoInstantSchema } from '../schemas/domain-events';

/*
 * The campaign service's internal endpoints (not on the public route table). webhook-ingress tells it, before it
 * answers the upstream's webhook, that a customer stopped marketing (a STOP keyword, or a `user_preferences`
 * stop): from that 200 on, the opt-out list and messaging's copy of it already refuse them.
 */

export interface CustomerStopRequest {
  /** The customer's address: a phone's digits or a user id. */
  address: string;
  source: 'keyword' | 'marketing_stop';
  /** When the customer chose it and when ingress received it (CustomerChoiceTime); now where absent. */
  chosen_at?: string;
  received_at?: string;
}

const customerStop = internalEndpoint<Record<string, never>, CustomerStopRequest, { address: string }>({
  method: 'POST',
  path: '/internal/v1/customer-stops',
  input: Joi.object<CustomerStopRequest>({
    address: Joi.alternatives(Joi.string().pattern(/^\d{1,15}$/), userIdSchema).required(),
    source: Joi.string().valid('keyword', 'marketing_stop').required(),
    chosen_at: isoInstantSchema,
    received_at: isoInstantSchema,
  }),
});

/** The campaign service's internal endpoints, by what they do. */
export const CAMPAIGN_ENDPOINTS = { customerStop } as const;
