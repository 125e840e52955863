import Joi from 'joi';
import type { Router } from 'express';
import {
  customerByPhone,
  findByUserId,
  listCustomers,
  setMarketing,
  upsertCustomer,
  USER_ID,
} from '../customers/customers';
import type { SandboxDeps } from '../deps';
import { controlError } from '../graph-errors';
import { digitsOnly } from '../ids';
import { businessOf, numberInfo, type Customer, type SandboxState } from '../state';
import { userPreferencesEnvelope } from '../webhooks-out/envelopes';
import { validateControl } from './validate';

interface CustomerInput {
  phone_number_id?: string;
  business_id?: string;
  wa_id?: string;
  user_id?: string;
  username?: string;
  username_only?: boolean;
}

const customerSchema = Joi.object<CustomerInput>({
  phone_number_id: Joi.string().min(1),
  business_id: Joi.string().min(1),
  wa_id: Joi.string().min(5),
  user_id: Joi.string().pattern(USER_ID),
  username: Joi.string().min(1).max(64),
  username_only: Joi.boolean(),
})
  .or('phone_number_id', 'business_id')
  .or('wa_id', 'user_id', 'username');

interface PreferenceInput {
  phone_number_id: string;
  from?: string;
  user_id?: string;
  value: 'stop' | 'resume';
  detail?: string;
  name: string;
}

const preferenceSchema = Joi.object<PreferenceInput>({
  phone_number_id: Joi.string().min(1).required(),
  from: Joi.string().min(5),
  user_id: Joi.string().pattern(USER_ID),
  value: Joi.string().valid('stop', 'resume').required(),
  detail: Joi.string().min(1),
  name: Joi.string().default('Sandbox Customer'),
}).or('from', 'user_id');

function businessIdOf(
  state: SandboxState,
  input: { phone_number_id?: string; business_id?: string },
): string {
  return input.business_id ?? businessOf(numberInfo(state, input.phone_number_id as string));
}

function resolve(state: SandboxState, businessId: string, waId?: string, userId?: string): Customer {
  if (userId !== undefined) {
    const known = findByUserId(state, businessId, userId);
    if (known !== undefined && (waId === undefined || known.wa_id === waId)) return known;
    return upsertCustomer(state, businessId, { wa_id: waId, user_id: userId });
  }
  return customerByPhone(state, businessId, waId as string, true);
}

/**
 * `/_sandbox/customers`: the portfolio-scoped user ids of customers, and customers who show a username only;
 * `/_sandbox/user-preferences`: a customer stops or resumes marketing messages (a signed `user_preferences`
 * webhook; while stopped, MARKETING template sends to them fail with 131050).
 */
export function customersRoutes(router: Router, deps: SandboxDeps): void {
  const { state, webhooks } = deps;

  router.post('/customers', (req, res) => {
    const input = validateControl(customerSchema, req.body);
    const customer = upsertCustomer(state, businessIdOf(state, input), {
      wa_id: input.wa_id === undefined ? undefined : digitsOnly(input.wa_id),
      user_id: input.user_id,
      username: input.username,
      username_only: input.username_only,
    });
    res.status(201).json(customer);
  });

  // With wa_id: that phone's customer (its derived user id is stable); else every customer known.
  router.get('/customers', (req, res) => {
    const query = req.query as Record<string, string | undefined>;
    if (query.wa_id !== undefined || query.user_id !== undefined) {
      if (query.phone_number_id === undefined && query.business_id === undefined) {
        throw controlError('phone_number_id or business_id is required with wa_id or user_id');
      }
      const businessId = businessIdOf(state, query);
      const customer =
        query.wa_id !== undefined
          ? customerByPhone(state, businessId, digitsOnly(query.wa_id), true)
          : findByUserId(state, businessId, query.user_id as string);
      res.json({ data: customer === undefined ? [] : [customer] });
      return;
    }
    const businessId =
      query.phone_number_id !== undefined || query.business_id !== undefined
        ? businessIdOf(state, query)
        : undefined;
    res.json({
      data: listCustomers(state).filter((c) => businessId === undefined || c.business_id === businessId),
    });
  });

  router.post('/user-preferences', async (req, res) => {
    const input = validateControl(preferenceSchema, req.body);
    const number = numberInfo(state, input.phone_number_id);
    const businessId = businessOf(number);
    const waId = input.from === undefined ? undefined : digitsOnly(input.from);
    const customer = setMarketing(state, resolve(state, businessId, waId, input.user_id), input.value);
    const payload = userPreferencesEnvelope(number, {
      waId: customer.username_only ? undefined : customer.wa_id,
      userId: customer.user_id,
      name: input.name,
      value: input.value,
      detail:
        input.detail ??
        (input.value === 'stop'
          ? 'User requested to stop marketing messages'
          : 'User requested to resume marketing messages'),
    });
    const target = { url: number.webhook_url ?? state.settings.webhookUrl, secret: state.settings.appSecret };
    const delivered = await webhooks.deliver('user_preferences', target, payload);
    res.json({ delivered, customer });
  });
}
