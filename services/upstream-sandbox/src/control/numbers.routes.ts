import Joi from 'joi';
import type { Router } from 'express';
import type { SandboxDeps } from '../deps';
import { numberInfo, type PhoneNumberRecord } from '../state';
import { validateControl } from './validate';

type NumberInput = Partial<Omit<PhoneNumberRecord, 'phone_number_id'>>;

const numberSchema = Joi.object<NumberInput>({
  waba_id: Joi.string().min(1),
  display_phone_number: Joi.string().min(1),
  mps: Joi.number().integer().min(0),
  webhook_url: Joi.string().uri({ scheme: ['http', 'https'] }),
  messaging_limit_tier: Joi.string().min(1),
  business_id: Joi.string().min(1),
});

/** `/_sandbox/numbers`: a sending number's WABA, portfolio, display number, throughput cap and webhook URL. */
export function numbersRoutes(router: Router, deps: SandboxDeps): void {
  const { state } = deps;

  // Merges into what is known, so `{ mps }` alone keeps the WABA set earlier.
  router.put('/numbers/:phoneNumberId', (req, res) => {
    const input = validateControl(numberSchema, req.body);
    const phoneNumberId = req.params.phoneNumberId;
    const { known: _known, ...current } = numberInfo(state, phoneNumberId);
    const record: PhoneNumberRecord = { ...current, ...input, phone_number_id: phoneNumberId };
    state.numbers.set(phoneNumberId, record);
    res.json(record);
  });

  router.get('/numbers', (_req, res) => {
    res.json({ data: [...state.numbers.values()] });
  });
}
