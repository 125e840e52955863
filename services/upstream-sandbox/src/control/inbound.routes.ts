import { createHash } from 'node:crypto';
import Joi from 'joi';
import type { Router } from 'express';
import type { SandboxDeps } from '../deps';
import { digitsOnly, newMessageId, newNumericId } from '../ids';
import { numberInfo } from '../state';
import { inboundEnvelope } from '../webhooks-out/envelopes';
import { validateControl } from './validate';

type InboundType = 'text' | 'button' | 'interactive' | 'image';

interface InboundInput {
  phone_number_id: string;
  from: string;
  text?: string;
  name: string;
  type: InboundType;
  payload?: string;
  context_id?: string;
}

const inboundSchema = Joi.object<InboundInput>({
  phone_number_id: Joi.string().min(1).required(),
  from: Joi.string().min(5).required(),
  text: Joi.string().allow(''),
  name: Joi.string().default('Sandbox Customer'),
  type: Joi.string().valid('text', 'button', 'interactive', 'image').default('text'),
  payload: Joi.string(),
  context_id: Joi.string(),
});

function messageContent(input: InboundInput): Record<string, unknown> {
  switch (input.type) {
    case 'text':
      return { type: 'text', text: { body: input.text ?? 'Hello' } };
    case 'button':
      return {
        type: 'button',
        button: { text: input.text ?? 'Stop', payload: input.payload ?? input.text ?? 'Stop' },
      };
    case 'interactive':
      return {
        type: 'interactive',
        interactive: {
          type: 'button_reply',
          button_reply: { id: input.payload ?? 'btn_1', title: input.text ?? 'Yes' },
        },
      };
    case 'image': {
      const sha256 = createHash('sha256').update(newNumericId()).digest('base64');
      const caption = input.text === undefined ? {} : { caption: input.text };
      return { type: 'image', image: { id: newNumericId(), mime_type: 'image/jpeg', sha256, ...caption } };
    }
  }
}

/** `POST /_sandbox/inbound`: a customer writes; the signed `messages` webhook goes out before the answer. */
export function inboundRoutes(router: Router, deps: SandboxDeps): void {
  const { state, webhooks } = deps;

  router.post('/inbound', async (req, res) => {
    const input = validateControl(inboundSchema, req.body);
    const number = numberInfo(state, input.phone_number_id);
    const from = digitsOnly(input.from);
    const messageId = newMessageId(from);
    const context =
      input.context_id === undefined
        ? {}
        : { context: { from: number.display_phone_number, id: input.context_id } };
    const payload = inboundEnvelope(number, {
      messageId,
      from,
      name: input.name,
      message: { ...context, ...messageContent(input) },
    });
    const target = { url: number.webhook_url ?? state.settings.webhookUrl, secret: state.settings.appSecret };
    const delivered = await webhooks.deliver('inbound', target, payload);
    res.json({ id: messageId, delivered });
  });
}
