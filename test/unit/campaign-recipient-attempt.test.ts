import { DOMAIN_EVENT_SCHEMAS } from '@bm/contracts';
import { validate } from '@bm/platform';
import { campaignRecipientOf } from '../../services/campaign/src/domain/sending/message-outcome';

describe('the campaign recipient attempt between campaign and messaging', () => {
  it('when a status event carries the attempt, then the recipient id is taken as it is', () => {
    expect(campaignRecipientOf({ campaign_recipient_id: '42', campaign_recipient_attempt: 2 })).toEqual({
      recipientId: '42',
      attempt: 2,
    });
    expect(campaignRecipientOf({ campaign_recipient_id: '42-1', campaign_recipient_attempt: 1 })).toBeNull();
  });

  it('when a status event answers a command from before the field, then the older "<id>-<attempt>" form is read', () => {
    expect(campaignRecipientOf({ campaign_recipient_id: '42' })).toEqual({ recipientId: '42', attempt: 0 });
    expect(campaignRecipientOf({ campaign_recipient_id: '42-3', campaign_recipient_attempt: null })).toEqual({
      recipientId: '42',
      attempt: 3,
    });
    expect(campaignRecipientOf({ campaign_recipient_id: null, campaign_recipient_attempt: null })).toBeNull();
  });

  it('when a send command carries the attempt, then it is kept; without it the command is still valid', () => {
    const command = {
      event_id: '01JD7S5Q4W2N8V0YB3C6E9F1GK',
      tenant_id: 1,
      occurred_at: new Date().toISOString(),
      campaign_id: '01JD7S5Q4W2N8V0YB3C6E9F1GJ',
      campaign_recipient_id: '42',
      channel_account_id: '01JD7S5Q4W2N8V0YB3C6E9F1GH',
      phone: '966501234567',
      template_name: 'order_update',
      template_language: 'en_US',
      components: [],
    };
    const schema = DOMAIN_EVENT_SCHEMAS['messaging.send_requested'];
    expect(validate(schema, { ...command, campaign_recipient_attempt: 1 })).toMatchObject({
      campaign_recipient_attempt: 1,
    });
    expect(validate(schema, command)).toEqual(command);
    expect(() => validate(schema, { ...command, campaign_recipient_attempt: -1 })).toThrow(
      'The request is invalid',
    );
  });
});
