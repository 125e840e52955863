import type Joi from 'joi';
import { DOMAIN_EVENT_SCHEMAS, type DomainEventKey } from '@bm/contracts';
import { useIngress, type Published } from './factories/ingress';
import type { Owner } from './factories/fake-messaging';
import { numberBody, upstreamId, wamid } from './factories/webhooks';

/*
 * Customers without a phone number (CONTRACT.md and WIRE-2026.md, "business-scoped user ids"), in the shapes the
 * upstream writes them. Sources of the shapes (field names and nesting; ids and names here are our own):
 * - a captured 2026 inbound webhook posted by a public repository's webhook test script (found searching public
 *   code for `"from_user_id"`): `contacts[]` with `wa_id`, `user_id` ("IN.<digits>") and an unknown
 *   `country_code`; `messages[]` with `from`, `from_user_id` and an unknown `from_logical_id`;
 * - ericvera/whatsapp-cloudapi, packages/types/src/webhook/contact.ts: `contacts[].user_id` beside `wa_id`;
 * - Meta's BSUID page as quoted in WIRE-2026.md: `contacts[].profile.username`, `contacts[].parent_user_id`,
 *   `messages[].from_parent_user_id`, and no `wa_id`/`from` for a customer with a username; statuses with
 *   `recipient_user_id` and no `recipient_id`.
 */
describe('customers named by user id (the 2026 wire)', () => {
  const [number, wabaId] = [upstreamId(), upstreamId()];
  const ingress = useIngress({ numbers: [] });
  let owner: Owner;

  beforeAll(() => {
    owner = ingress.messaging.register(number);
  });

  const expectValid = (items: Published[]) => {
    for (const item of items) {
      const schema = DOMAIN_EVENT_SCHEMAS[item.routingKey as DomainEventKey] as Joi.Schema;
      expect(schema.validate(item.payload).error).toBeUndefined();
    }
  };

  it('when a customer with a username writes without a phone, then the message is published with their user id and username', async () => {
    const id = wamid();
    const userId = `US.${Date.now()}${Math.floor(Math.random() * 1e6)}`;
    const message = {
      from_user_id: userId,
      from_parent_user_id: `US.ENT.${Date.now()}`,
      id,
      timestamp: '1779372805',
      type: 'text',
      text: { body: 'Hi, is my order on its way?' },
    };
    const body = numberBody(
      number,
      {
        contacts: [
          {
            profile: { name: 'Riya', username: '@riya.k' },
            user_id: userId,
            parent_user_id: `US.ENT.${Date.now()}`,
            country_code: 'US',
          },
        ],
        messages: [message],
      },
      wabaId,
    );
    await ingress.postJson(body).expect(200);
    const [item] = await ingress.waitForPublished('message_id', id);
    expectValid([item]);
    expect(item.routingKey).toBe('inbound.message');
    expect(item.payload).toMatchObject({
      tenant_id: owner.tenant_id,
      message_id: id,
      from: null,
      from_user_id: userId,
      username: '@riya.k',
      name: 'Riya',
      type: 'text',
      text: 'Hi, is my order on its way?',
      raw: message,
    });
  });

  it('when a body names a customer by phone and user id, with fields we do not know, then both are published', async () => {
    const id = wamid();
    const [phone, userId] = [`91${Date.now()}`.slice(0, 12), 'IN.1410018700000001'];
    const body = numberBody(
      number,
      {
        contacts: [{ profile: { name: 'Krish' }, wa_id: phone, user_id: userId, country_code: 'IN' }],
        messages: [
          {
            from: phone,
            from_user_id: userId,
            id,
            timestamp: '1779372805',
            text: { body: 'Hey' },
            from_logical_id: '95000398405635',
            type: 'text',
          },
        ],
      },
      wabaId,
    );
    await ingress.postJson(body).expect(200);
    const [item] = await ingress.waitForPublished('message_id', id);
    expectValid([item]);
    expect(item.payload).toMatchObject({ from: phone, from_user_id: userId, username: null, name: 'Krish' });
  });

  it('when a status names its recipient by user id only, then it is published like any other', async () => {
    const id = wamid();
    const body = numberBody(
      number,
      {
        statuses: [
          {
            id,
            status: 'delivered',
            timestamp: '1779372805',
            recipient_user_id: 'US.13491208655302741918',
            pricing: { billable: true, pricing_model: 'PMP', type: 'regular', category: 'utility' },
          },
        ],
      },
      wabaId,
    );
    await ingress.postJson(body).expect(200);
    const [item] = await ingress.waitForPublished('provider_message_id', id);
    expectValid([item]);
    expect(item.payload).toMatchObject({
      status: 'delivered',
      recipient_id: null,
      pricing_category: 'utility',
      pricing: { pricing_model: 'PMP', type: 'regular', category: 'utility' },
    });
  });

  it('when a message names neither a phone nor a user id, then it is kept as skipped, never published', async () => {
    const [id, kept] = [wamid(), wamid()];
    const body = numberBody(
      number,
      {
        messages: [
          { id, timestamp: '1779372805', type: 'text', text: { body: 'who am I?' } },
          { from: '15551234567', id: kept, timestamp: '1779372805', type: 'text', text: { body: 'me' } },
        ],
      },
      wabaId,
    );
    await ingress.postJson(body).expect(200);
    await ingress.waitForPublished('message_id', kept);
    expect(ingress.published.filter((p) => p.payload.message_id === id)).toHaveLength(0);
  });
});
