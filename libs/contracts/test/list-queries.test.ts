import {
  campaignRecipientsQuerySchema,
  listMessagesQuerySchema,
  webhookDeliveriesQuerySchema,
  webhookSettingsSchema,
} from '@bm/contracts';
import { AppError, validate } from '@bm/platform';

function fields(schema: Parameters<typeof validate>[0], value: unknown): string[] {
  try {
    validate(schema, value);
  } catch (error) {
    if (error instanceof AppError)
      return (error.details?.errors as Array<{ field: string }>).map((e) => e.field);
    throw error;
  }
  return [];
}

describe('list queries', () => {
  it('when query strings are given, then numbers are converted and phones normalized', () => {
    expect(
      validate(listMessagesQuerySchema, {
        status: 'cancelled',
        to_phone: '+966 50 123 4567',
        page: '2',
        per_page: '10',
      }),
    ).toEqual({ status: 'cancelled', to_phone: '966501234567', page: 2, per_page: 10 });
  });

  it('when recipients are asked for without parameters, then page 1 of 50 is read', () => {
    expect(validate(campaignRecipientsQuerySchema, {})).toEqual({ page: 1, per_page: 50 });
  });

  it('when per_page is over 100 or the status unknown, then each is a field error', () => {
    expect(fields(campaignRecipientsQuerySchema, { per_page: '101', status: 'done' })).toEqual([
      'per_page',
      'status',
    ]);
    expect(fields(listMessagesQuerySchema, { campaign_id: 'abc', page: '0' })).toEqual([
      'campaign_id',
      'page',
    ]);
  });

  it('when deliveries are filtered by an unknown event, then event is refused', () => {
    expect(fields(webhookDeliveriesQuerySchema, { event: 'message.sent', status: 'failed' })).toEqual([
      'event',
    ]);
  });
});

describe('webhookSettingsSchema', () => {
  it('when events are omitted, then all events are sent (null)', () => {
    expect(validate(webhookSettingsSchema, { url: 'https://client.example.com/hooks' })).toEqual({
      url: 'https://client.example.com/hooks',
      events: null,
    });
  });

  it('when url is null, then the endpoint is removed', () => {
    expect(validate(webhookSettingsSchema, { url: null, events: ['campaign.completed'] }).url).toBeNull();
  });

  it('when the url is not http(s), too long, or an event is unknown, then each is named', () => {
    expect(fields(webhookSettingsSchema, { url: 'ftp://x.example.com', events: ['message.sent'] })).toEqual([
      'url',
      'events[0]',
    ]);
    expect(fields(webhookSettingsSchema, { url: `https://e.com/${'a'.repeat(2048)}` })).toEqual(['url']);
  });
});
