import type Joi from 'joi';
import { DOMAIN_EVENT_SCHEMAS, type DomainEventKey } from '@bm/contracts';
import { useIngress, type Published } from './factories/ingress';
import type { Owner } from './factories/fake-messaging';
import {
  accountEntry,
  contact,
  entry,
  envelope,
  messagesChange,
  numberBody,
  statusReport,
  textMessage,
  upstreamId,
  wamid,
} from './factories/webhooks';

describe('splitting upstream bodies into inbound items', () => {
  const [numberA, numberB, wabaId] = [upstreamId(), upstreamId(), upstreamId()];
  const ingress = useIngress({ numbers: [numberB] });
  let ownerA: Owner;

  beforeAll(() => {
    ownerA = ingress.messaging.register(numberA);
  });

  const expectValid = (items: Published[]) => {
    for (const item of items) {
      const schema = DOMAIN_EVENT_SCHEMAS[item.routingKey as DomainEventKey] as Joi.Schema;
      expect(schema.validate(item.payload).error).toBeUndefined();
      expect(item.messageId).toBe(item.payload.event_id);
    }
  };

  it('when customer messages of every kind arrive, then each becomes an inbound.message with its text, media and reply', async () => {
    const [sheena, mark] = [upstreamId(), upstreamId()];
    const ids = { text: wamid(), image: wamid(), interactive: wamid(), button: wamid() };
    const body = numberBody(
      numberA,
      {
        contacts: [contact(sheena, 'Sheena Nelson'), contact(mark, 'Mark')],
        messages: [
          textMessage(sheena, 'STOP', '1749416383', ids.text),
          {
            from: mark,
            id: ids.image,
            timestamp: '1749416383',
            type: 'image',
            image: {
              id: '1479537139650973',
              mime_type: 'image/jpeg',
              sha256: 'SOr8=',
              caption: 'my order',
            },
          },
          {
            from: mark,
            id: ids.interactive,
            timestamp: '1749416383',
            type: 'interactive',
            context: { from: '15550783881', id: 'wamid.ORIGINAL' },
            interactive: { type: 'button_reply', button_reply: { id: 'btn_yes', title: 'Yes' } },
          },
          {
            from: sheena,
            id: ids.button,
            timestamp: '1749416383',
            type: 'button',
            button: { text: 'Stop promotions', payload: 'STOP_PROMO' },
          },
        ],
      },
      wabaId,
    );
    await ingress.postJson(body).expect(200);
    const items = await Promise.all(
      Object.values(ids).map((id) => ingress.waitForPublished('message_id', id)),
    );
    const [text, image, interactive, button] = items.map(([item]) => item);
    expectValid([text, image, interactive, button]);
    expect(text).toMatchObject({ routingKey: 'inbound.message' });
    expect(text.payload).toEqual({
      event_id: expect.any(String),
      tenant_id: ownerA.tenant_id,
      occurred_at: '2025-06-08T20:59:43.000Z',
      // When ingress received the body: orders two choices the upstream dated in the same second.
      received_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
      waba_id: wabaId,
      phone_number_id: numberA,
      message_id: ids.text,
      from: sheena,
      from_user_id: null,
      username: null,
      name: 'Sheena Nelson',
      type: 'text',
      text: 'STOP',
      media: null,
      button_payload: null,
      context_message_id: null,
      raw: textMessage(sheena, 'STOP', '1749416383', ids.text),
    });
    expect(image.payload).toMatchObject({
      type: 'image',
      name: 'Mark',
      text: 'my order',
      media: { id: '1479537139650973', mime_type: 'image/jpeg', sha256: 'SOr8=', caption: 'my order' },
    });
    expect(interactive.payload).toMatchObject({
      type: 'interactive',
      text: 'Yes',
      button_payload: 'btn_yes',
      context_message_id: 'wamid.ORIGINAL',
    });
    expect(button.payload).toMatchObject({
      type: 'button',
      text: 'Stop promotions',
      button_payload: 'STOP_PROMO',
    });
  });

  it('when statuses sent, delivered, read and failed arrive, then each is an inbound.status with ISO time and errors', async () => {
    const [delivered, failed, recipient] = [wamid(), wamid(), upstreamId()];
    const body = numberBody(
      numberA,
      {
        statuses: [
          statusReport(delivered, 'sent', recipient, '1750030073'),
          statusReport(delivered, 'delivered', recipient, '1750030080'),
          statusReport(delivered, 'read', recipient, '1750030090'),
          statusReport(failed, 'failed', recipient, '1750030073'),
        ],
      },
      wabaId,
    );
    await ingress.postJson(body).expect(200);
    const reports = await ingress.waitForPublished('provider_message_id', delivered, 3);
    const [failure] = await ingress.waitForPublished('provider_message_id', failed);
    expectValid([...reports, failure]);
    expect(reports.map((r) => [r.payload.status, r.payload.occurred_at])).toEqual([
      ['sent', '2025-06-15T23:27:53.000Z'],
      ['delivered', '2025-06-15T23:28:00.000Z'],
      ['read', '2025-06-15T23:28:10.000Z'],
    ]);
    expect(reports[0].payload).toMatchObject({
      tenant_id: ownerA.tenant_id,
      waba_id: wabaId,
      phone_number_id: numberA,
      recipient_id: recipient,
      errors: [],
      pricing_category: 'marketing',
      conversation_id: '72b14d6b0f0d2bbf4d5b2b5b3b6d7a11',
    });
    expect(failure.payload).toMatchObject({
      status: 'failed',
      pricing_category: null,
      conversation_id: null,
      errors: [
        {
          code: 131049,
          title: 'This message was not delivered to maintain healthy ecosystem engagement.',
          message: 'This message was not delivered to maintain healthy ecosystem engagement.',
          details: 'In order to maintain a healthy ecosystem engagement, the message failed.',
        },
      ],
    });
  });

  it('when a status comes without recipient_id or timestamp and with a numeric-string error code, then it is still an inbound.status', async () => {
    const [bare, failed] = [wamid(), wamid()];
    const body = numberBody(
      numberA,
      {
        statuses: [
          { id: bare, status: 'delivered' },
          { id: failed, status: 'failed', errors: [{ code: '131050', title: 'Unable to deliver' }] },
        ],
      },
      wabaId,
    );
    await ingress.postJson(body).expect(200);
    const [report] = await ingress.waitForPublished('provider_message_id', bare);
    const [failure] = await ingress.waitForPublished('provider_message_id', failed);
    expectValid([report, failure]);
    expect(report.payload).toMatchObject({ status: 'delivered', recipient_id: null, errors: [] });
    expect(failure.payload).toMatchObject({
      status: 'failed',
      recipient_id: null,
      errors: [{ code: 131050, title: 'Unable to deliver' }],
    });
  });

  it('when a status carries biz_opaque_callback_data, then its inbound.status carries it; one without has null', async () => {
    const [named, unnamed] = [wamid(), wamid()];
    const body = numberBody(
      numberA,
      {
        statuses: [
          { id: named, status: 'sent', timestamp: '1750030073', biz_opaque_callback_data: 'bm1:42:2' },
          { id: unnamed, status: 'sent', timestamp: '1750030073' },
        ],
      },
      wabaId,
    );
    await ingress.postJson(body).expect(200);
    const [withData] = await ingress.waitForPublished('provider_message_id', named);
    const [without] = await ingress.waitForPublished('provider_message_id', unnamed);
    expectValid([withData, without]);
    expect(withData.payload.biz_opaque_callback_data).toBe('bm1:42:2');
    expect(without.payload.biz_opaque_callback_data).toBeNull();
  });

  it("when a message's from carries a + and its contact's wa_id does not, then the contact's name is still found", async () => {
    const [sheena, id] = [upstreamId(), wamid()];
    const body = numberBody(
      numberA,
      {
        contacts: [contact(sheena, 'Sheena Nelson')],
        messages: [textMessage(`+${sheena}`, 'Hi', '1749416383', id)],
      },
      wabaId,
    );
    await ingress.postJson(body).expect(200);
    const [message] = await ingress.waitForPublished('message_id', id);
    expectValid([message]);
    expect(message.payload).toMatchObject({ name: 'Sheena Nelson', text: 'Hi' });
  });

  it('when account-level changes arrive, then template status, number quality and account updates go out with the WABA and no tenant', async () => {
    const templateName = `abandoned_cart_${upstreamId()}`;
    const violation = `ACCOUNT_VIOLATION_${upstreamId()}`;
    const body = {
      object: 'whatsapp_business_account',
      entry: [
        accountEntry(wabaId, 1717000000, 'message_template_status_update', {
          event: 'APPROVED',
          message_template_id: 1689556908129835,
          message_template_name: templateName,
          message_template_language: 'en_US',
          reason: 'NONE',
          message_template_category: 'MARKETING',
        }),
        accountEntry(wabaId, 1717000000, 'phone_number_quality_update', {
          display_phone_number: '15550783881',
          event: 'THROUGHPUT_UPGRADE',
          current_limit: 'TIER_10K',
        }),
        accountEntry(wabaId, 1717000000, 'account_update', {
          event: violation,
          violation_info: { violation_type: 'SCAM' },
        }),
      ],
    };
    await ingress.postJson(body).expect(200);
    const [template] = await ingress.waitForPublished('name', templateName);
    const [account] = await ingress.waitForPublished('event', violation);
    const quality = await ingress.waitForPublished('display_phone_number', '15550783881');
    const tier = quality.find((q) => q.payload.waba_id === wabaId)!;
    expectValid([template, account, tier]);
    const base = {
      tenant_id: null,
      waba_id: wabaId,
      phone_number_id: null,
      occurred_at: '2024-05-29T16:26:40.000Z',
    };
    expect(template).toMatchObject({ routingKey: 'inbound.template_status' });
    expect(template.payload).toMatchObject({
      ...base,
      template_id: '1689556908129835',
      language: 'en_US',
      event: 'APPROVED',
      reason: 'NONE',
      category: 'MARKETING',
    });
    expect(tier).toMatchObject({ routingKey: 'inbound.phone_quality' });
    expect(tier.payload).toMatchObject({ ...base, event: 'THROUGHPUT_UPGRADE', current_limit: 'TIER_10K' });
    expect(account).toMatchObject({ routingKey: 'inbound.account_update' });
    expect(account.payload).toMatchObject({
      ...base,
      field: 'account_update',
      details: { event: violation, violation_info: { violation_type: 'SCAM' } },
    });
  });

  it('when one body batches several entries, numbers and changes, then every item goes out and unreadable parts are listed as skipped', async () => {
    const [customer, statusId, otherWaba] = [upstreamId(), wamid(), upstreamId()];
    const [first, second] = [wamid(), wamid()];
    const body = envelope(
      entry(
        wabaId,
        messagesChange(numberA, { messages: [textMessage(customer, 'one', '1749416383', first)] }),
        messagesChange(numberA, {
          statuses: [
            statusReport(statusId, 'delivered', customer),
            statusReport(statusId, 'bounced', customer),
          ],
        }),
        { field: 'messages' },
      ),
      entry(
        otherWaba,
        messagesChange(numberB, { messages: [textMessage(customer, 'two', '1749416383', second)] }),
      ),
    );
    const res = await ingress.postJson(body).expect(200);
    const [one] = await ingress.waitForPublished('message_id', first);
    const [two] = await ingress.waitForPublished('message_id', second);
    await ingress.waitForPublished('provider_message_id', statusId);
    expect(one.payload).toMatchObject({ waba_id: wabaId, phone_number_id: numberA });
    expect(two.payload).toMatchObject({ waba_id: otherWaba, phone_number_id: numberB });
    const detail = await ingress.eventOf(res.body.data.event_id as string);
    expect(detail).toMatchObject({
      outcome: 'processed',
      item_count: 3,
      published_count: 3,
      skipped_count: 2,
    });
    expect(detail.items.map((i) => [i.path, i.state])).toEqual([
      ['entry[0].changes[0].value.messages[0]', 'published'],
      ['entry[0].changes[1].value.statuses[0]', 'published'],
      ['entry[1].changes[0].value.messages[0]', 'published'],
    ]);
    expect(detail.skipped).toEqual([
      { path: 'entry[0].changes[1].value.statuses[1]', reason: 'unknown status bounced' },
      { path: 'entry[0].changes[2]', reason: 'change without field or value' },
    ]);
  });
});
