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
});
