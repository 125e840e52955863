import { createHash, randomBytes } from 'node:crypto';
import Joi from 'joi';
import type { Router } from 'express';
import { customerByPhone, upsertCustomer, USER_ID } from '../customers/customers';
import type { SandboxDeps } from '../deps';
import { digitsOnly, newMessageId } from '../ids';
import { storeMedia } from '../media/media.routes';
import { businessOf, numberInfo, playsWire2026, type SandboxState } from '../state';
import { inboundEnvelope } from '../webhooks-out/envelopes';
import { validateControl } from './validate';

type InboundType = 'text' | 'button' | 'interactive' | 'image';

interface InboundInput {
  phone_number_id: string;
  from?: string;
  user_id?: string;
  username?: string;
  username_only?: boolean;
  text?: string;
  name: string;
  type: InboundType;
  payload?: string;
  context_id?: string;
  /** An image's bytes (base64; default a few random bytes) and its type. */
  media_base64?: string;
  mime_type: string;
  media_redirect?: 'lookup' | 'download';
}

const inboundSchema = Joi.object<InboundInput>({
  phone_number_id: Joi.string().min(1).required(),
  from: Joi.string().min(5),
  user_id: Joi.string().pattern(USER_ID),
  username: Joi.string().min(1).max(64),
  username_only: Joi.boolean(),
  text: Joi.string().allow(''),
  name: Joi.string().default('Sandbox Customer'),
  type: Joi.string().valid('text', 'button', 'interactive', 'image').default('text'),
  payload: Joi.string(),
  context_id: Joi.string(),
  media_base64: Joi.string().base64(),
  mime_type: Joi.string().default('image/jpeg'),
  media_redirect: Joi.string().valid('lookup', 'download'),
}).or('from', 'user_id', 'username');

function messageContent(state: SandboxState, input: InboundInput): Record<string, unknown> {
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
      const bytes =
        input.media_base64 === undefined ? randomBytes(1024) : Buffer.from(input.media_base64, 'base64');
      const sha256 = createHash('sha256').update(bytes).digest('base64');
      const id = storeMedia(state, { bytes, mime_type: input.mime_type, redirect: input.media_redirect });
      const caption = input.text === undefined ? {} : { caption: input.text };
      return { type: 'image', image: { id, mime_type: input.mime_type, sha256, ...caption } };
    }
  }
}

/**
 * `POST /_sandbox/inbound`: a customer writes; the signed `messages` webhook goes out before the answer. The
 * message opens the customer's 24 h service window with the number. Given `user_id`, `username` or
 * `username_only` (or when the sandbox plays v24.0+), the webhook carries the 2026 fields (`contacts[].user_id`,
 * `contacts[].profile.username`, `messages[].from_user_id`); a username-only customer's has no `wa_id`/`from`.
 */
export function inboundRoutes(router: Router, deps: SandboxDeps): void {
  const { state, webhooks } = deps;

  router.post('/inbound', async (req, res) => {
    const input = validateControl(inboundSchema, req.body);
    const number = numberInfo(state, input.phone_number_id);
    const businessId = businessOf(number);
    const from = input.from === undefined ? undefined : digitsOnly(input.from);
    const extended =
      input.user_id !== undefined || input.username !== undefined || input.username_only !== undefined;
    const customer = extended
      ? upsertCustomer(state, businessId, {
          wa_id: from,
          user_id: input.user_id,
          username: input.username,
          username_only: input.username_only,
        })
      : customerByPhone(state, businessId, from as string);
    state.windows.set(`${input.phone_number_id}|${customer.user_id}`, Date.now());
    const newFields = extended || playsWire2026(state);
    const shownPhone = customer.username_only ? undefined : customer.wa_id;
    const messageId = newMessageId(shownPhone ?? customer.user_id);
    const context =
      input.context_id === undefined
        ? {}
        : { context: { from: number.display_phone_number, id: input.context_id } };
    const payload = inboundEnvelope(number, {
      messageId,
      from: shownPhone,
      userId: newFields ? customer.user_id : undefined,
      username: newFields ? customer.username : undefined,
      name: input.name,
      message: { ...context, ...messageContent(state, input) },
    });
    const target = { url: number.webhook_url ?? state.settings.webhookUrl, secret: state.settings.appSecret };
    const delivered = await webhooks.deliver('inbound', target, payload);
    res.json({ id: messageId, delivered, ...(extended ? { user_id: customer.user_id } : {}) });
  });
}
