import { createCampaignSchema, MAX_CAMPAIGN_RECIPIENTS, type CreateCampaignRequest } from '@bm/contracts';
import { AppError, validate } from '@bm/platform';

type FieldErrors = Array<{ field: string; message: string }>;

function fieldErrors(body: unknown): FieldErrors {
  try {
    validate(createCampaignSchema, body);
  } catch (error) {
    if (error instanceof AppError && error.code === 'VALIDATION_ERROR')
      return error.details?.errors as FieldErrors;
    throw error;
  }
  throw new Error('expected a VALIDATION_ERROR');
}

function recipients(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    phone: `+96650${String(1_000_000 + i)}`,
    name: `Customer ${i}`,
    variables: { '1': `Name ${i}`, '2': `#${i}` },
  }));
}

const campaign = (overrides: Record<string, unknown> = {}) => ({
  channel_account_id: '01JD7S5Q4W2N8V0YB3C6E9F1GH',
  message_type: 'template',
  template_name: 'order_update',
  template_params: ['Customer', '#0'],
  recipients: recipients(3),
  campaign_name: 'November promo',
  ...overrides,
});

describe('createCampaignSchema', () => {
  it('when the campaign is valid, then split_across_days defaults to false and phones are kept as sent', () => {
    const value: CreateCampaignRequest = validate(createCampaignSchema, campaign());
    expect(value.split_across_days).toBe(false);
    expect(value.recipients[0].phone).toBe('+966501000000');
  });

  it(`when the list holds ${MAX_CAMPAIGN_RECIPIENTS} recipients, then it is accepted`, () => {
    const value = validate(
      createCampaignSchema,
      campaign({ recipients: recipients(MAX_CAMPAIGN_RECIPIENTS) }),
    );
    expect(value.recipients).toHaveLength(MAX_CAMPAIGN_RECIPIENTS);
  });

  it(`when the list holds ${MAX_CAMPAIGN_RECIPIENTS + 1} recipients, then recipients is a field error`, () => {
    expect(fieldErrors(campaign({ recipients: recipients(MAX_CAMPAIGN_RECIPIENTS + 1) }))).toEqual([
      { field: 'recipients', message: 'recipients must contain less than or equal to 50000 items' },
    ]);
  });

  it('when recipient 17 has no phone string, then the error names recipients[17].phone', () => {
    const list = recipients(20);
    list[17] = { ...list[17], phone: 966501234567 as unknown as string };
    expect(fieldErrors(campaign({ recipients: list }))).toEqual([
      { field: 'recipients[17].phone', message: 'recipients[17].phone must be a string' },
    ]);
  });

  it('when a recipient phone is a string but not a valid number, then the campaign is still accepted', () => {
    const list = [...recipients(2), { phone: 'not a number' }];
    expect(validate(createCampaignSchema, campaign({ recipients: list })).recipients[2].phone).toBe(
      'not a number',
    );
  });

  it('when campaign_name has 121 characters, then it is refused, and 120 are accepted', () => {
    expect(fieldErrors(campaign({ campaign_name: 'x'.repeat(121) }))[0].field).toBe('campaign_name');
    expect(
      validate(createCampaignSchema, campaign({ campaign_name: 'x'.repeat(120) })).campaign_name,
    ).toHaveLength(120);
  });

  it('when variables use keys other than positions or non-string values, then each is named', () => {
    const list = [{ phone: '966501234567', variables: { name: 'x', '1': 5 } }];
    expect(
      fieldErrors(campaign({ recipients: list }))
        .map((e) => e.field)
        .sort(),
    ).toEqual(['recipients[0].variables.1', 'recipients[0].variables.name']);
  });

  it('when required fields are missing and the type is text, then all are listed at once', () => {
    const errors = fieldErrors({ message_type: 'text', recipients: [] });
    expect(errors.map((e) => e.field)).toEqual([
      'channel_account_id',
      'message_type',
      'template_name',
      'recipients',
    ]);
  });

  it('when header_media carries both link and id or neither, then header_media is refused', () => {
    expect(fieldErrors(campaign({ header_media: { type: 'image' } }))[0].field).toBe('header_media');
    expect(
      fieldErrors(campaign({ header_media: { type: 'image', link: 'https://e.com/a.jpg', id: '1' } }))[0]
        .field,
    ).toBe('header_media');
  });
});
