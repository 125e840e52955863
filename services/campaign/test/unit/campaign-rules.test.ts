import type { MessageStatusUpdatedEvent } from '@bm/contracts';
import { AppError } from '@bm/platform';
import { fitToCapacity } from '../../src/domain/creating/fit-to-capacity';
import { partSizes, plannedStart } from '../../src/domain/creating/split-across-days';
import { isEarly, stepNeedsMessaging } from '../../src/domain/sending/campaign-step';
import {
  campaignRecipientOf,
  namesCampaignRecipient,
  outcomeOf,
} from '../../src/domain/sending/message-outcome';
import type { Campaign, RecipientCounts } from '../../src/domain/ports/campaigns.port';
import type { Capacity } from '../../src/domain/ports/messaging.port';

/* The campaign's pure rules, without a database or a broker: the split across days, the capacity check, the
 * dispatch step's questions and what a status event means for a recipient. */

const DAY = 86_400_000;

describe('split across days', () => {
  it('when every recipient fits now, then the list is one part', () => {
    expect(partSizes(500, 1_000, 1_000)).toEqual([500]);
    expect(partSizes(5_000, 0, null)).toEqual([5_000]);
  });

  it('when some fit now, then the first part takes them and each later part a day limit', () => {
    expect(partSizes(2_500, 300, 1_000)).toEqual([300, 1_000, 1_000, 200]);
  });

  it('when none fit now, then the first part is a whole day limit that waits for capacity', () => {
    expect(partSizes(1_500, 0, 1_000)).toEqual([1_000, 500]);
  });

  it('when the parts are summed, then they hold every recipient exactly once', () => {
    for (const [requested, available, limit] of [
      [1, 0, 1],
      [10_001, 9_999, 250],
      [50_000, 1_000, 10_000],
    ]) {
      const sizes = partSizes(requested, available, limit);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(requested);
      expect(sizes.slice(1).every((s) => s <= limit)).toBe(true);
    }
  });

  it('when a later part is planned, then it starts a day per part after the first, from now when unscheduled', () => {
    const at = new Date('2026-12-01T09:00:00Z');
    expect(plannedStart(at, 1, DAY, 0)).toBe(at);
    expect(plannedStart(null, 1, DAY, 0)).toBeNull();
    expect(plannedStart(at, 3, DAY, 0)?.toISOString()).toBe('2026-12-03T09:00:00.000Z');
    expect(plannedStart(null, 2, DAY, 1_000)?.getTime()).toBe(1_000 + DAY);
  });
});

describe('capacity check', () => {
  const capacity: Capacity = { daily_limit: 1_000, used_today: 900, remaining: 100 };

  it('when the list does not fit and may not be split, then it is refused with the figures', () => {
    const refusal = (() => {
      try {
        fitToCapacity(250, 100, capacity, false);
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(refusal).toBeInstanceOf(AppError);
    expect((refusal as AppError).code).toBe('MESSAGING_TIER_LIMIT_EXCEEDED');
    expect((refusal as AppError).details).toEqual({
      daily_limit: 1_000,
      used_today: 900,
      remaining: 100,
      requested: 250,
    });
  });

  it('when the list does not fit and may be split, then it is cut into daily parts', () => {
    expect(fitToCapacity(250, 100, capacity, true)).toEqual([100, 150]);
  });

  it('when the list fits, then it is one part whatever the split flag says', () => {
    expect(fitToCapacity(80, 100, capacity, false)).toEqual([80]);
  });
});

describe('dispatch step', () => {
  const campaign = (over: Partial<Campaign>): Campaign =>
    ({ status: 'processing', scheduledAt: null, ...over }) as Campaign;
  const counts = (unrequested: number): RecipientCounts => ({ unrequested }) as RecipientCounts;

  it('when a pending part is due later, then it is early and must ask messaging for capacity first', () => {
    const later = campaign({ status: 'pending', scheduledAt: new Date(Date.now() + 60_000) });
    expect(isEarly(later)).toBe(true);
    expect(stepNeedsMessaging(later, counts(0))).toBe(true);
  });

  it('when a campaign is due or already running, then it is not early', () => {
    expect(isEarly(campaign({ status: 'pending', scheduledAt: new Date(Date.now() - 1) }))).toBe(false);
    expect(isEarly(campaign({ status: 'processing', scheduledAt: new Date(Date.now() + 60_000) }))).toBe(
      false,
    );
  });

  it('when every recipient is handed over, then the step needs no answer from messaging', () => {
    expect(stepNeedsMessaging(campaign({}), counts(0))).toBe(false);
    expect(stepNeedsMessaging(campaign({}), counts(3))).toBe(true);
  });
});

describe('what a status event means for a campaign recipient', () => {
  const event = (over: Partial<MessageStatusUpdatedEvent>): MessageStatusUpdatedEvent =>
    ({
      message_log_id: 7,
      status: 'sent',
      campaign_recipient_id: '42',
      campaign_recipient_attempt: 1,
      error_message: null,
      occurred_at: '2026-11-28T10:00:00.000Z',
      ...over,
    }) as MessageStatusUpdatedEvent;

  it('when the event names a recipient and attempt, then both are read; a packed id carries its attempt', () => {
    expect(campaignRecipientOf(event({}))).toEqual({ recipientId: '42', attempt: 1 });
    expect(
      campaignRecipientOf(event({ campaign_recipient_id: '42-3', campaign_recipient_attempt: undefined })),
    ).toEqual({ recipientId: '42', attempt: 3 });
    expect(
      campaignRecipientOf(event({ campaign_recipient_id: 'x', campaign_recipient_attempt: 1 })),
    ).toBeNull();
  });

  it('when a single send reports, then it names no recipient and means nothing here', () => {
    expect(namesCampaignRecipient({ campaign_recipient_id: null })).toBe(false);
    expect(namesCampaignRecipient({})).toBe(false);
    expect(namesCampaignRecipient('not an object')).toBe(true);
    expect(outcomeOf(event({ campaign_recipient_id: null }))).toBeNull();
  });

  it('when delivered, read or failed, then the recipient is sent or failed; a failure without a reason gets one', () => {
    expect(outcomeOf(event({ status: 'read' }))?.status).toBe('sent');
    const failed = outcomeOf(event({ status: 'failed' }));
    expect(failed).toMatchObject({ status: 'failed', errorMessage: 'the message failed', recipientId: '42' });
    expect(
      outcomeOf(event({ status: 'queued' })),
    ).toBeNull();
  });
});
