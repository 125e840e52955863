import {
  campaignRecipientOf,
  namesCampaignRecipient,
} from '../../services/campaign/src/domain/sending/message-outcome';

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
});

describe('which status events the campaign service checks at all', () => {
  it('when an event names no campaign recipient (a single send), then it is left unchecked: it means nothing here', () => {
    expect(namesCampaignRecipient({ status: 'read', campaign_recipient_id: null })).toBe(false);
    expect(namesCampaignRecipient({ status: 'read' })).toBe(false);
    expect(namesCampaignRecipient({ status: 42, message_log_id: 'not a number' })).toBe(false);
  });

  it('when an event names a recipient, or is not an object at all, then it is checked against the schema', () => {
    expect(namesCampaignRecipient({ campaign_recipient_id: '42', campaign_recipient_attempt: 0 })).toBe(true);
    expect(namesCampaignRecipient({ campaign_recipient_id: 42 })).toBe(true);
    expect(namesCampaignRecipient('garbage')).toBe(true);
    expect(namesCampaignRecipient(null)).toBe(true);
  });
});
