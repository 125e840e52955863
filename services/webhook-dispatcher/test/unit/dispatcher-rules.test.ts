import { createHmac } from 'node:crypto';
import type { DomainEventPayloads } from '@bm/contracts';
import { AddressPolicy } from '../../src/domain/address-policy';
import { blockedRangeOf } from '../../src/domain/blocked-ranges';
import { answerError, nextStep } from '../../src/domain/retry-policy';
import { signatureHeader, signatureOf } from '../../src/domain/signature';
import { toWebhookBody } from '../../src/domain/webhook-event';
import { subjectsOf } from '../../src/domain/list-webhook-deliveries.use-case';

/* The dispatcher's pure rules, without a database or a network: what a domain event's webhook body is, when an
 * attempt is retried, how a body is signed, and where webhooks may go. */

const occurred = '2026-11-28T10:00:00.123Z';

describe('webhook bodies', () => {
  it('when a message status event is published, then its body lists the published fields in order', () => {
    const payload = {
      event_id: '01J',
      tenant_id: 7,
      occurred_at: occurred,
      message_log_id: 12,
      channel_account_id: 'acc',
      status: 'delivered',
      previous_status: 'sent',
      to_phone: '+14155550123',
      provider_message_id: 'wamid.1',
      error_code: null,
      error_message: null,
      campaign_id: null,
      campaign_recipient_id: null,
    } as unknown as DomainEventPayloads['message.status_updated'];

    const body = toWebhookBody('message.status_updated', payload);

    expect(JSON.stringify(body)).toBe(
      '{"event":"message.status_updated","tenant_id":7,"timestamp":"2026-11-28T10:00:00+00:00",' +
        '"message_log_id":12,"status":"delivered","to_phone":"+14155550123","provider_message_id":"wamid.1",' +
        '"error_message":null,"campaign_id":null}',
    );
  });

  it('when a message moves to a status the API does not publish, then there is no body', () => {
    const payload = { tenant_id: 7, occurred_at: occurred, status: 'queued' } as never;
    expect(toWebhookBody('message.status_updated', payload)).toBeUndefined();
  });

  it('when a campaign event is published, then its body carries the campaign counts and nothing internal', () => {
    const payload = {
      tenant_id: 3,
      occurred_at: occurred,
      campaign_id: 'c1',
      name: 'Spring',
      status: 'completed',
      total_count: 3,
      sent_count: 2,
      failed_count: 1,
      channel_account_id: 'not published',
    } as unknown as DomainEventPayloads['campaign.completed'];

    expect(toWebhookBody('campaign.completed', payload)).toEqual({
      event: 'campaign.completed',
      tenant_id: 3,
      timestamp: '2026-11-28T10:00:00+00:00',
      campaign_id: 'c1',
      name: 'Spring',
      status: 'completed',
      total_count: 3,
      sent_count: 2,
      failed_count: 1,
    });
  });
});

describe('retries', () => {
  const settings = { maxRetries: 3, intervalMs: 10_000, retryAfterMaxMs: 60_000 };

  it('when the receiver answers 2xx, then the delivery is delivered', () => {
    expect(nextStep({ httpStatus: 204, durationMs: 5, excerpt: null }, 1, settings)).toEqual({
      status: 'delivered',
      retryInMs: 0,
    });
  });

  it('when it answers an error or times out while retries remain, then it is retried after the interval', () => {
    expect(nextStep({ httpStatus: 500, durationMs: 5, excerpt: null }, 1, settings)).toEqual({
      status: 'pending',
      retryInMs: 10_000,
    });
    const timeout = { httpStatus: null, durationMs: 10_000, error: 'timeout: x', retryable: true } as const;
    expect(nextStep(timeout, 3, settings).status).toBe('pending');
  });

  it('when the receiver asks for a longer wait, then Retry-After is honoured up to its cap', () => {
    const answer = (retryAfterMs: number) => ({
      httpStatus: 429,
      durationMs: 1,
      excerpt: null,
      retryAfterMs,
    });
    expect(nextStep(answer(30_000), 1, settings).retryInMs).toBe(30_000);
    expect(nextStep(answer(600_000), 1, settings).retryInMs).toBe(60_000);
    expect(nextStep(answer(1_000), 1, settings).retryInMs).toBe(10_000);
  });

  it('when retries are spent or the refusal cannot change, then the delivery has failed', () => {
    expect(nextStep({ httpStatus: 500, durationMs: 5, excerpt: null }, 4, settings).status).toBe('failed');
    const blocked = {
      httpStatus: null,
      durationMs: 0,
      error: 'address_blocked: x',
      retryable: false,
    } as const;
    expect(nextStep(blocked, 1, settings).status).toBe('failed');
  });

  it('when an answer is not a success, then the monitor names it; a redirect is not followed', () => {
    expect(answerError(200)).toBeNull();
    expect(answerError(302)).toBe('redirect_not_followed: HTTP 302');
    expect(answerError(500)).toBe('http_error: HTTP 500');
  });
});

describe('signatures', () => {
  it('when a body is signed, then it is HMAC-SHA256 over timestamp.body, newest secret first', () => {
    const expected = createHmac('sha256', 'whsec_a').update('123.{"x":1}').digest('hex');
    expect(signatureOf('whsec_a', '123', '{"x":1}')).toBe(`sha256=${expected}`);
    expect(signatureHeader(['whsec_a', 'whsec_b'], '123', '{}')?.split(' ')).toHaveLength(2);
    expect(signatureHeader([], '123', '{}')).toBeUndefined();
  });
});

describe('where webhooks may go', () => {
  const production = new AddressPolicy(false, '');

  it('when an address is reserved, then its range is named; a public one passes', () => {
    expect(blockedRangeOf('127.0.0.1')).toBe('loopback');
    expect(blockedRangeOf('10.1.2.3')).toBe('private');
    expect(blockedRangeOf('::ffff:127.0.0.1')).toBe('loopback');
    expect(blockedRangeOf('8.8.8.8')).toBeUndefined();
    expect(blockedRangeOf('example.com')).toBe('not an IP address');
  });

  it('when a URL is http, has credentials or names a reserved IP, then production refuses it', () => {
    expect(production.refuseUrl('http://example.com/hook')).toBe('url must use https');
    expect(production.refuseUrl('https://u:p@example.com/hook')).toBe('url must not contain credentials');
    expect(production.refuseUrl('https://127.0.0.1/hook')).toBe('127.0.0.1 is a loopback address');
    expect(production.refuseUrl('https://example.com/hook')).toBeUndefined();
  });

  it('when a host is allow-listed by name or network, then it may be private', () => {
    const local = new AddressPolicy(true, 'receiver.local, 10.0.0.0/8');
    expect(local.refuseUrl('http://10.2.3.4/hook')).toBeUndefined();
    expect(local.refuseAddress('receiver.local', '192.168.1.1')).toBeUndefined();
    expect(local.refuseAddress('other.local', '192.168.1.1')).toBe('192.168.1.1 is a private address');
  });
});

describe('what the health monitor tells about a delivery', () => {
  it('when an event names a message log or a campaign, then the monitor links it; otherwise null', () => {
    expect(
      subjectsOf({
        event: 'message.status_updated',
        message_log_id: 7,
        campaign_id: '01JCAMPAIGN0000000000000000',
      }),
    ).toEqual({ messageId: 7, campaignId: '01JCAMPAIGN0000000000000000' });
    expect(subjectsOf({ event: 'campaign.completed', campaign_id: '01JC' })).toEqual({
      messageId: null,
      campaignId: '01JC',
    });
    // A received message's id is the upstream's, not a message log.
    expect(subjectsOf({ event: 'message.received', message_id: 'wamid.x' })).toEqual({
      messageId: null,
      campaignId: null,
    });
  });
});
