import type Joi from 'joi';
import {
  DOMAIN_EVENT_SCHEMAS,
  addressChangeOf,
  type DomainEventKey,
  type InboundMessageItem,
} from '@bm/contracts';
import { AS_WRITTEN_AND_DRESSED, waitFor } from '@bm/platform/testing';
import { useIngress, type Published } from './factories/ingress';
import { envelope, numberBody, upstreamId, wamid, type Json } from './factories/webhooks';

/*
 * Bodies of the 2026 wire as others publish them (WIRE-2026.md), beside the shapes of customers-2026.test.ts. Field
 * names, nesting and values follow the sources below; ids, numbers and names are our own. Each body also goes in
 * again with fields we do not know sprinkled into every object: nothing of it may break.
 * - Statuses with per-message pricing: Secreto31126/whatsapp-api-js, test/payloads/v25/sent.json (a `sent` with
 *   `recipient_user_id`, an unknown `parent_recipient_user_id`, `conversation` and `pricing` {billable, "PMP",
 *   "regular", "marketing"}, `contacts[]` with `user_id`/`parent_user_id`) and test/payloads/v25/delivered.json (a
 *   `delivered` with no `pricing`, a contact with `username`); Meta's business-scoped user ids page
 *   (developers.facebook.com/documentation/business-messaging/whatsapp/business-scoped-user-ids, read in a public
 *   repository's copy found searching public code for `"pricing_model": "PMP"`): a `delivered` priced "regular"
 *   "marketing", `contacts[].profile.country_code`, and `recipient_id: ""` beside `recipient_user_id`; Meta's pricing
 *   page (developers.facebook.com/documentation/business-messaging/whatsapp/pricing, in another public repository's
 *   copy found by the same search): utility in a customer service window priced {billable: false, "PMP",
 *   "free_customer_service", "utility"}; a public repository's captured hosting log of real deliveries (same search):
 *   `sent`, `delivered` and `read` of one service reply, each with `conversation.origin.type` "service" and `pricing`
 *   "free_customer_service" "service".
 * - Statuses with the older `CBP` pricing: david-lev/pywa, tests/data/updates/message_status.json (`conversation`
 *   {id, expiration_timestamp, origin} and `pricing` {billable, "CBP", "service"}, no `type`).
 * - `user_preferences`: LimaLb01/endpoint-flow, docs_whatsappflow/docs_apiwhatsapp/user_preferences.md (Meta's
 *   reference: `metadata`, `contacts[]`, items {wa_id, detail "User requested to stop marketing messages", category
 *   "marketing_messages", value, timestamp as a number}, no `entry[].time`); david-lev/pywa,
 *   tests/data/updates/user_preferences.json (a "resume" item, and an item of an unknown category and value);
 *   Meta's business-scoped user ids page (above): items with `user_id` beside a `wa_id` that may be "".
 * - `business_capability_update`: Meta's reference (developers.facebook.com/documentation/business-messaging/
 *   whatsapp/webhooks/reference/business_capability_update, in the docs index and a public repository's copy): its
 *   payload example writes `max_daily_conversations_per_business` as the number 2000 beside
 *   `max_phone_numbers_per_waba`, its parameter table as TIER_250 … TIER_UNLIMITED (the form WIRE-2026.md gives).
 * - `phone_number_quality_update` without `current_limit`: LimaLb01/endpoint-flow,
 *   docs_whatsappflow/docs_apiwhatsapp/phone_number_quality_update.md (Meta's reference: `current_limit` "will be
 *   removed in February, 2026. Use max_daily_conversations_per_business instead").
 * - `system` messages: david-lev/pywa, tests/data/updates/system.json (`user_changed_number` with `from` and
 *   `system` {body, wa_id, type}; `user_changed_user_id` with no `from` nor `from_user_id`, `system` {body, user_id,
 *   previous_user_id, type}); Meta's system messages reference and its changelog of 11 August 2026
 *   (developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/messages/system and
 *   …/whatsapp/changelog, in the docs index): `user_changed_user_id` carries no phone, with `system.previous_user_id`
 *   and `system.previous_parent_user_id`;
 *   YCloud-Developers/ycloud-sdk-java, docs/WhatsappInboundMessageSystem.md, and whatsapp-api-js's documented type
 *   ServerSystemMessage (whatsappapijs.web.app/types/types.ServerSystemMessage.html): the older `system.new_wa_id`.
 *   I found no public body carrying `user_changed_user_id` with both `from_user_id` and `system.previous_user_id`:
 *   that one is built from WIRE-2026.md.
 */

describe.each(AS_WRITTEN_AND_DRESSED)('bodies of the 2026 wire %s', (_, dress) => {
  const [number, wabaId] = [upstreamId(), upstreamId()];
  const ingress = useIngress({ numbers: [number] });

  const expectValid = (items: Published[]) => {
    for (const item of items) {
      const schema = DOMAIN_EVENT_SCHEMAS[item.routingKey as DomainEventKey] as Joi.Schema;
      expect(schema.validate(item.payload).error).toBeUndefined();
    }
  };

  /** Posts a body, waits until it is split with nothing skipped, and answers its items as published, in order. */
  const deliver = async (body: Json): Promise<Published[]> => {
    const eventId = (await ingress.postJson(body).expect(200)).body.data.event_id as string;
    const event = await ingress.splitEvent(eventId);
    expect(event.skipped).toEqual([]);
    const ids = event.items.map((i) => i.item_event_id);
    const items = await waitFor(
      () => {
        const found = ids.map((id) => ingress.published.find((p) => p.payload.event_id === id));
        return found.every(Boolean) && (found as Published[]);
      },
      { what: `the ${ids.length} item(s) of event ${eventId}` },
    );
    expectValid(items);
    return items;
  };

  /** The value of a body's first change, as it was posted. */
  const valueOf = (body: Json): Json => {
    const [entry] = body.entry as Json[];
    const [change] = entry.changes as Json[];
    return change.value as Json;
  };
  const messagesOf = (body: Json): Json[] => valueOf(body).messages as Json[];

  describe('statuses priced per message', () => {
    it('when a sent and a delivered status carry PMP pricing, then each is published with the pricing the product reads', async () => {
      const [marketing, utility] = [wamid(), wamid()];
      const [phone, userId, parentId] = [
        `1631${upstreamId().slice(0, 7)}`,
        'US.13491208655302741918',
        'US.11815799212886844830',
      ];
      const regular = { billable: true, pricing_model: 'PMP', type: 'regular', category: 'marketing' };
      const free = {
        billable: false,
        pricing_model: 'PMP',
        type: 'free_customer_service',
        category: 'utility',
      };
      const body = dress(
        numberBody(
          number,
          {
            statuses: [
              {
                id: marketing,
                status: 'sent',
                timestamp: '1779372805',
                recipient_id: phone,
                recipient_user_id: userId,
                parent_recipient_user_id: parentId,
                conversation: {
                  id: 'c0ab246839b33ca5014b41fd2ede5b86',
                  expiration_timestamp: '1779459205',
                  origin: { type: 'marketing' },
                },
                pricing: regular,
              },
              {
                id: marketing,
                status: 'delivered',
                timestamp: '1779372806',
                recipient_id: '',
                recipient_user_id: userId,
                pricing: regular,
              },
              { id: utility, status: 'sent', timestamp: '1779372807', recipient_id: phone, pricing: free },
              // A delivered that carries no pricing: it came on the sent (WIRE-2026.md).
              { id: utility, status: 'delivered', timestamp: '1779372808', recipient_id: phone },
            ],
            contacts: [
              {
                profile: { name: 'Pablo M.', username: '@pablo.m', country_code: 'US' },
                wa_id: phone,
                user_id: userId,
                parent_user_id: parentId,
              },
            ],
          },
          wabaId,
        ),
      );
      const [sent, delivered, utilitySent, utilityDelivered] = await deliver(body);
      const base = { tenant_id: expect.any(Number), waba_id: wabaId, phone_number_id: number, errors: [] };
      expect(sent).toMatchObject({ routingKey: 'inbound.status' });
      expect(sent.payload).toMatchObject({
        ...base,
        provider_message_id: marketing,
        status: 'sent',
        recipient_id: phone,
        pricing_category: 'marketing',
        conversation_id: 'c0ab246839b33ca5014b41fd2ede5b86',
        occurred_at: '2026-05-21T14:13:25.000Z',
      });
      // The product prices a report by these three alone: `billable` is being retired and `type` decides.
      expect(sent.payload.pricing).toEqual({ pricing_model: 'PMP', type: 'regular', category: 'marketing' });
      expect(delivered.payload).toMatchObject({ ...base, status: 'delivered', recipient_id: null });
      expect(delivered.payload.pricing).toEqual({
        pricing_model: 'PMP',
        type: 'regular',
        category: 'marketing',
      });
      expect(utilitySent.payload).toMatchObject({
        status: 'sent',
        pricing_category: 'utility',
        conversation_id: null,
      });
      expect(utilitySent.payload.pricing).toEqual({
        pricing_model: 'PMP',
        type: 'free_customer_service',
        category: 'utility',
      });
      expect(utilityDelivered.payload).toMatchObject({
        status: 'delivered',
        pricing: null,
        pricing_category: null,
      });
    });

    it('when the sent, delivered and read of a service reply each carry free customer-service pricing and a conversation, then all three are published priced', async () => {
      const [id, phone] = [wamid(), `593${upstreamId().slice(0, 9)}`];
      const report = (status: string, timestamp: string, extra: Json = {}): Json => ({
        id,
        status,
        timestamp,
        recipient_id: phone,
        conversation: { id: 'ffeaa1cbc54959bae5d514606232decf', ...extra, origin: { type: 'service' } },
        pricing: {
          billable: false,
          pricing_model: 'PMP',
          category: 'service',
          type: 'free_customer_service',
        },
      });
      const body = dress(
        numberBody(
          number,
          {
            statuses: [
              report('sent', '1760659225', { expiration_timestamp: '1760659225' }),
              report('delivered', '1760659226'),
              report('read', '1760659226'),
            ],
          },
          wabaId,
        ),
      );
      const items = await deliver(body);
      expect(items.map((i) => i.payload.status)).toEqual(['sent', 'delivered', 'read']);
      for (const item of items) {
        expect(item.payload).toMatchObject({
          provider_message_id: id,
          recipient_id: phone,
          pricing_category: 'service',
          pricing: { pricing_model: 'PMP', type: 'free_customer_service', category: 'service' },
          conversation_id: 'ffeaa1cbc54959bae5d514606232decf',
        });
      }
    });

    it('when a status of a message sent before July 2025 carries CBP pricing and its conversation, then it is published with the model and no type', async () => {
      const [id, phone] = [wamid(), `972${upstreamId().slice(0, 9)}`];
      const body = dress(
        numberBody(
          number,
          {
            statuses: [
              {
                id,
                status: 'sent',
                timestamp: '1698266945',
                recipient_id: phone,
                biz_opaque_callback_data: 'some data',
                conversation: {
                  id: '7270432eae37498234f4444b35ffc5',
                  expiration_timestamp: '1698339900',
                  origin: { type: 'service' },
                },
                pricing: { billable: true, pricing_model: 'CBP', category: 'service' },
              },
              {
                id,
                status: 'delivered',
                timestamp: '1698266945',
                recipient_id: phone,
                conversation: { id: '7270432eae37498234f4444b35ffc5', origin: { type: 'service' } },
                pricing: { billable: true, pricing_model: 'CBP', category: 'service' },
              },
            ],
          },
          wabaId,
        ),
      );
      const [sent, delivered] = await deliver(body);
      expect(sent.payload).toMatchObject({
        status: 'sent',
        pricing_category: 'service',
        conversation_id: '7270432eae37498234f4444b35ffc5',
        biz_opaque_callback_data: 'some data',
        occurred_at: '2023-10-25T20:49:05.000Z',
      });
      // No `type`: the product charges nothing for it (only `regular` is charged).
      expect(sent.payload.pricing).toEqual({ pricing_model: 'CBP', type: null, category: 'service' });
      expect(delivered.payload).toMatchObject({
        status: 'delivered',
        pricing: { pricing_model: 'CBP', type: null, category: 'service' },
      });
    });
  });

  describe('user_preferences', () => {
    const preferencesBody = (value: Json): Json =>
      envelope({ id: wabaId, changes: [{ value, field: 'user_preferences' }] });
    const metadata = () => ({ display_phone_number: '15550783881', phone_number_id: number });

    it('when a customer stops marketing messages, then an account update is published with the preference as written and the number messaging reads it by', async () => {
      const phone = `1650${upstreamId().slice(0, 7)}`;
      const preference = {
        wa_id: phone,
        detail: 'User requested to stop marketing messages',
        category: 'marketing_messages',
        value: 'stop',
        timestamp: 1731705721,
      };
      const value = {
        messaging_product: 'whatsapp',
        metadata: metadata(),
        contacts: [{ profile: { name: 'Sheena Nelson' }, wa_id: phone }],
        user_preferences: [preference],
      };
      const body = dress(preferencesBody(value));
      const [item] = await deliver(body);
      expect(item).toMatchObject({ routingKey: 'inbound.account_update' });
      expect(item.payload).toMatchObject({
        tenant_id: null,
        waba_id: wabaId,
        phone_number_id: null,
        field: 'user_preferences',
        event: null,
      });
      // Messaging finds the number in `details.metadata` and reads each item of `details.user_preferences`.
      expect(item.payload.details).toEqual(valueOf(body));
      expect(item.payload.details).toMatchObject({
        metadata: { phone_number_id: number },
        user_preferences: [{ wa_id: phone, category: 'marketing_messages', value: 'stop' }],
      });
    });

    it('when customers named by user id resume marketing, beside an item of a category we do not know, then the change is published whole', async () => {
      const [userId, phone] = [
        `US.${Date.now()}${upstreamId().slice(0, 4)}`,
        `1650${upstreamId().slice(0, 7)}`,
      ];
      const value = {
        messaging_product: 'whatsapp',
        metadata: metadata(),
        contacts: [
          {
            profile: { name: 'Pablo M.', username: '@pablo.m', country_code: 'US' },
            wa_id: '',
            user_id: userId,
          },
          { wa_id: phone },
        ],
        user_preferences: [
          {
            wa_id: '',
            user_id: userId,
            detail: 'User requested to resume marketing messages',
            category: 'marketing_messages',
            value: 'resume',
            timestamp: 1779372805,
          },
          { wa_id: phone, detail: 'xyz', category: 'unknown', value: 'bla', timestamp: 1779372806 },
        ],
      };
      const body = dress(preferencesBody(value));
      const [item] = await deliver(body);
      expect(item.payload).toMatchObject({ field: 'user_preferences', phone_number_id: null });
      expect(item.payload.details).toMatchObject({
        metadata: { phone_number_id: number },
        user_preferences: [
          { wa_id: '', user_id: userId, category: 'marketing_messages', value: 'resume' },
          { wa_id: phone, category: 'unknown', value: 'bla' },
        ],
      });
    });
  });

  describe("the portfolio's messaging limit", () => {
    it('when business_capability_update names the limit as a tier or as a number, then each is published as an account update with its value as written', async () => {
      const [tierWaba, numberWaba] = [upstreamId(), upstreamId()];
      const capability = (id: string, value: Json): Json => ({
        id,
        time: 1779372805,
        changes: [{ value, field: 'business_capability_update' }],
      });
      const body = dress(
        envelope(
          capability(tierWaba, {
            max_daily_conversations_per_business: 'TIER_2K',
            max_phone_numbers_per_waba: 25,
          }),
          capability(numberWaba, {
            max_daily_conversations_per_business: 2000,
            max_phone_numbers_per_waba: 25,
          }),
        ),
      );
      const [asTier, asNumber] = await deliver(body);
      const base = {
        tenant_id: null,
        phone_number_id: null,
        field: 'business_capability_update',
        event: null,
        occurred_at: '2026-05-21T14:13:25.000Z',
      };
      expect(asTier).toMatchObject({ routingKey: 'inbound.account_update' });
      expect(asTier.payload).toMatchObject({
        ...base,
        waba_id: tierWaba,
        details: { max_daily_conversations_per_business: 'TIER_2K', max_phone_numbers_per_waba: 25 },
      });
      expect(asNumber.payload).toMatchObject({
        ...base,
        waba_id: numberWaba,
        details: { max_daily_conversations_per_business: 2000, max_phone_numbers_per_waba: 25 },
      });
    });

    it('when phone_number_quality_update comes without current_limit, then the quality event is published with no limit', async () => {
      const display = `1555${upstreamId().slice(0, 7)}`;
      const body = dress(
        envelope({
          id: wabaId,
          time: 1779372805,
          changes: [
            {
              value: {
                display_phone_number: display,
                event: 'THROUGHPUT_UPGRADE',
                max_daily_conversations_per_business: 'TIER_10K',
              },
              field: 'phone_number_quality_update',
            },
          ],
        }),
      );
      const [item] = await deliver(body);
      expect(item).toMatchObject({ routingKey: 'inbound.phone_quality' });
      // The limit is the portfolio's now, told by business_capability_update: this one moves no tier.
      expect(item.payload).toMatchObject({
        tenant_id: null,
        waba_id: wabaId,
        phone_number_id: null,
        display_phone_number: display,
        event: 'THROUGHPUT_UPGRADE',
        current_limit: null,
      });
    });
  });

  describe('system messages: a customer at a new address', () => {
    const systemBody = (...messages: Json[]): Json => numberBody(number, { messages }, wabaId);

    it('when a customer changed their number (new number in system.wa_id, or the older system.new_wa_id), then each is published as an inbound message with its raw body intact', async () => {
      const [oldPhone, newPhone, olderNew] = [
        '972' + upstreamId().slice(0, 9),
        '972' + upstreamId().slice(0, 9),
        '1219' + upstreamId().slice(0, 7),
      ];
      const body = dress(
        systemBody(
          {
            from: oldPhone,
            id: wamid(),
            timestamp: '1753851315',
            system: {
              body: `User A changed from ${oldPhone} to ${newPhone}`,
              wa_id: newPhone,
              type: 'user_changed_number',
            },
            type: 'system',
          },
          {
            from: oldPhone,
            id: wamid(),
            timestamp: '1753851316',
            system: {
              body: `User A changed from ${oldPhone} to ${olderNew}`,
              new_wa_id: olderNew,
              type: 'user_changed_number',
            },
            type: 'system',
          },
        ),
      );
      const [byWaId, byNewWaId] = await deliver(body);
      const [first, second] = messagesOf(body);
      expect(byWaId).toMatchObject({ routingKey: 'inbound.message' });
      expect(byWaId.payload).toMatchObject({
        message_id: first.id,
        from: oldPhone,
        from_user_id: null,
        type: 'system',
        text: null,
        media: null,
        raw: first,
      });
      expect(byNewWaId.payload).toMatchObject({ message_id: second.id, from: oldPhone, raw: second });
      // Messaging reads the move from the published item alone.
      expect(addressChangeOf(byWaId.payload as unknown as InboundMessageItem)).toEqual({
        previous: oldPhone,
        current: newPhone,
        link: null,
      });
      expect(addressChangeOf(byNewWaId.payload as unknown as InboundMessageItem)).toMatchObject({
        previous: oldPhone,
        current: olderNew,
      });
    });

    it('when a customer changed their user id (the new id in from_user_id, the previous in system.previous_user_id), then it is published with the new id and its raw body intact', async () => {
      const [previous, current] = [`CO.${upstreamId()}`, `MX.${upstreamId()}`];
      const body = dress(
        systemBody({
          from_user_id: current,
          id: wamid(),
          timestamp: '1786800000',
          type: 'system',
          system: {
            body: `User changed from ${previous} to ${current}`,
            previous_user_id: previous,
            previous_parent_user_id: `CO.ENT.${upstreamId()}`,
            type: 'user_changed_user_id',
          },
        }),
      );
      const [item] = await deliver(body);
      const [message] = messagesOf(body);
      expect(item.payload).toMatchObject({ from: null, from_user_id: current, type: 'system', raw: message });
      expect(addressChangeOf(item.payload as unknown as InboundMessageItem)).toEqual({
        previous,
        current,
        link: null,
      });
    });

    it('when a change of user id names the customer inside system alone (no from, no from_user_id), then it is published under the new id, not skipped', async () => {
      const [previous, current] = [`CO.${upstreamId()}`, `MX.${upstreamId()}`];
      const body = dress(
        systemBody({
          id: wamid(),
          timestamp: '1753851315',
          system: {
            body: `User changed from ${previous} to ${current}`,
            user_id: current,
            previous_user_id: previous,
            type: 'user_changed_user_id',
          },
          type: 'system',
        }),
      );
      const [item] = await deliver(body);
      const [message] = messagesOf(body);
      expect(item.payload).toMatchObject({ from: null, from_user_id: current, type: 'system', raw: message });
      expect(addressChangeOf(item.payload as unknown as InboundMessageItem)).toEqual({
        previous,
        current,
        link: null,
      });
    });
  });
});
