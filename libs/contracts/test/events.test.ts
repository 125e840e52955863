import {
  DOMAIN_EVENT_SCHEMAS,
  DOMAIN_EVENTS,
  formatWebhookTimestamp,
  WEBHOOK_EVENTS,
  type WebhookEventBody,
} from '@bm/contracts';
import { validate } from '@bm/platform';

const base = {
  event_id: '01JD7S5Q4W2N8V0YB3C6E9F1GH',
  tenant_id: 7,
  occurred_at: '2026-11-22T09:30:00.000Z',
};

describe('webhook events', () => {
  it('when the published list is read, then it has the twelve event names', () => {
    expect(WEBHOOK_EVENTS).toHaveLength(12);
    expect(new Set(WEBHOOK_EVENTS).size).toBe(12);
  });

  it('when a webhook timestamp is formatted, then it carries an explicit +00:00 offset and no milliseconds', () => {
    expect(formatWebhookTimestamp(new Date('2026-11-22T09:30:00.123Z'))).toBe('2026-11-22T09:30:00+00:00');
  });

  it('when a status body is typed, then the event name selects its fields', () => {
    const body: WebhookEventBody<'message.status_updated'> = {
      event: 'message.status_updated',
      tenant_id: 7,
      timestamp: '2026-11-22T09:30:00+00:00',
      message_log_id: 12,
      status: 'delivered',
      to_phone: '966501234567',
      provider_message_id: 'wamid.X',
      error_message: null,
      campaign_id: null,
    };
    expect(body.status).toBe('delivered');
  });
});

describe('domain event schemas', () => {
  it('when every routing key is listed, then each has a consumer schema', () => {
    for (const key of Object.values(DOMAIN_EVENTS)) expect(DOMAIN_EVENT_SCHEMAS[key]).toBeDefined();
  });

  it('when a status event carries a field the consumer does not know yet, then it is still accepted', () => {
    const event = {
      ...base,
      message_log_id: 12,
      channel_account_id: '01JD7S5Q4W2N8V0YB3C6E9F1GH',
      status: 'failed',
      previous_status: 'sent',
      to_phone: '966501234567',
      provider_message_id: 'wamid.X',
      error_code: 131049,
      error_message: 'frequency cap',
      campaign_id: null,
      campaign_recipient_id: null,
      added_later: true,
    };
    expect(validate(DOMAIN_EVENT_SCHEMAS['message.status_updated'], event)).toEqual(event);
  });

  it('when an inbound status lacks its tenant, then null is accepted but a missing message id is not', () => {
    const item = {
      ...base,
      tenant_id: null,
      waba_id: '102290129340398',
      phone_number_id: '106540352242922',
      provider_message_id: 'wamid.X',
      status: 'delivered',
      recipient_id: '16505551234',
      errors: [],
      pricing_category: 'marketing',
      conversation_id: null,
    };
    expect(validate(DOMAIN_EVENT_SCHEMAS['inbound.status'], item)).toEqual(item);
    const { provider_message_id: _dropped, ...missing } = item;
    expect(() => validate(DOMAIN_EVENT_SCHEMAS['inbound.status'], missing)).toThrow('The request is invalid');
  });

  it('when a send command has components, then they are checked like a send request', () => {
    const command = {
      ...base,
      campaign_id: '01JD7S5Q4W2N8V0YB3C6E9F1GJ',
      campaign_recipient_id: '42',
      channel_account_id: '01JD7S5Q4W2N8V0YB3C6E9F1GH',
      phone: '966501234567',
      template_name: 'order_update',
      template_language: 'en_US',
      components: [{ type: 'body', parameters: [{ type: 'text', text: 'Mark' }] }],
    };
    expect(validate(DOMAIN_EVENT_SCHEMAS['messaging.send_requested'], command)).toEqual(command);
  });

  it('when a send command names the recipient attempt, then it is kept, and a negative one is refused', () => {
    const command = {
      ...base,
      campaign_id: '01JD7S5Q4W2N8V0YB3C6E9F1GJ',
      campaign_recipient_id: '42',
      campaign_recipient_attempt: 1,
      channel_account_id: '01JD7S5Q4W2N8V0YB3C6E9F1GH',
      phone: '966501234567',
      template_name: 'order_update',
      template_language: 'en_US',
      components: [],
    };
    const schema = DOMAIN_EVENT_SCHEMAS['messaging.send_requested'];
    expect(validate(schema, command)).toEqual(command);
    expect(() => validate(schema, { ...command, campaign_recipient_attempt: -1 })).toThrow(
      'The request is invalid',
    );
  });
});
