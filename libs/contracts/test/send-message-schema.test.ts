import { sendMessageSchema, type SendTemplateMessageRequest } from '@bm/contracts';
import { AppError, validate } from '@bm/platform';

const ACCOUNT = '01JD7S5Q4W2N8V0YB3C6E9F1GH';

function fieldErrors(body: unknown): Array<{ field: string; message: string }> {
  try {
    validate(sendMessageSchema, body);
  } catch (error) {
    if (error instanceof AppError && error.code === 'VALIDATION_ERROR') {
      return error.details?.errors as Array<{ field: string; message: string }>;
    }
    throw error;
  }
  throw new Error('expected a VALIDATION_ERROR');
}

const text = (overrides: Record<string, unknown> = {}) => ({
  channel_account_id: ACCOUNT,
  phone: '+966 50 123 4567',
  message_type: 'text',
  data: { text: 'مرحبا' },
  ...overrides,
});

const template = (overrides: Record<string, unknown> = {}) => ({
  channel_account_id: ACCOUNT,
  phone: '16505551234',
  message_type: 'template',
  data: {
    name: 'order_update',
    components: [
      { type: 'header', parameters: [{ type: 'image', image: { link: 'https://example.com/a.jpg' } }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Mark' },
          { type: 'text', text: '#123' },
        ],
      },
    ],
  },
  ...overrides,
});

describe('sendMessageSchema', () => {
  it('when a text send is valid, then the phone is normalized and nothing is added', () => {
    expect(validate(sendMessageSchema, text())).toEqual({ ...text(), phone: '966501234567' });
  });

  it('when a template send omits the defaults, then language en_US and no auto retry are filled in', () => {
    const value = validate(sendMessageSchema, template()) as SendTemplateMessageRequest;
    expect(value.data.language_code).toBe('en_US');
    expect(value.auto_retry_on_frequency_cap).toBe(false);
    expect(value.data.components).toHaveLength(2);
  });

  it('when several fields are missing or bad, then every one is listed in one answer', () => {
    const errors = fieldErrors({
      channel_account_id: 'nope',
      phone: '0501234567',
      message_type: 'text',
      data: {},
    });
    expect(errors.map((e) => e.field).sort()).toEqual(['channel_account_id', 'data.text', 'phone']);
    expect(errors.find((e) => e.field === 'phone')?.message).toBe(
      'phone must be a valid number with country code',
    );
  });

  it('when the body is empty, then every required field is named', () => {
    expect(fieldErrors({}).map((e) => e.field)).toEqual([
      'channel_account_id',
      'phone',
      'message_type',
      'data',
    ]);
  });

  it('when message_type is unknown, then the error is on message_type alone', () => {
    const errors = fieldErrors(text({ message_type: 'video', data: { text: 'hi' } }));
    expect(errors).toEqual([
      { field: 'message_type', message: 'message_type must be one of [text, template]' },
    ]);
  });

  it('when message_type is template but data is a text body, then the template fields are required', () => {
    const errors = fieldErrors(template({ data: { text: 'hi' } }));
    expect(errors.map((e) => e.field).sort()).toEqual(['data.name', 'data.text']);
  });

  it('when the text is over 4096 characters or blank, then data.text is refused', () => {
    expect(fieldErrors(text({ data: { text: 'x'.repeat(4097) } }))[0].field).toBe('data.text');
    expect(fieldErrors(text({ data: { text: '   ' } }))[0].message).toBe('data.text must not be blank');
  });

  it('when an unknown field is sent, then it is refused by name, as Stripe does', () => {
    expect(fieldErrors(text({ schedule_at: '2026-11-22T09:30:00Z' }))).toEqual([
      { field: 'schedule_at', message: 'schedule_at is not allowed' },
    ]);
  });

  it('when a text send asks for the frequency-cap retry, then that field is refused', () => {
    expect(fieldErrors(text({ auto_retry_on_frequency_cap: true }))[0]).toEqual({
      field: 'auto_retry_on_frequency_cap',
      message: 'auto_retry_on_frequency_cap applies to template messages only',
    });
  });

  it('when scheduled_at and timezone are bad, then both are named', () => {
    const errors = fieldErrors(text({ scheduled_at: 'tomorrow', timezone: 'Mars/Olympus' }));
    expect(errors.map((e) => e.field)).toEqual(['scheduled_at', 'timezone']);
  });

  it('when component types are upper case, then they are accepted and lowered', () => {
    const body = template({
      data: { name: 'x', components: [{ type: 'BODY', parameters: [{ type: 'TEXT', text: 'a' }] }] },
    });
    const value = validate(sendMessageSchema, body) as SendTemplateMessageRequest;
    expect(value.data.components).toEqual([{ type: 'body', parameters: [{ type: 'text', text: 'a' }] }]);
  });

  it('when a parameter lacks its value or media has both link and id, then the parameter path is named', () => {
    const components = [
      { type: 'header', parameters: [{ type: 'image', image: { link: 'https://e.com/a.jpg', id: '123' } }] },
      { type: 'body', parameters: [{ type: 'text' }, { type: 'text', text: 'b', image: { id: '1' } }] },
      { type: 'button', parameters: [{ type: 'payload', payload: 'p' }] },
    ];
    const fields = fieldErrors(template({ data: { name: 'x', components } })).map((e) => e.field);
    expect(fields.sort()).toEqual([
      'data.components[0].parameters[0].image',
      'data.components[1].parameters[0].text',
      'data.components[1].parameters[1].image',
      'data.components[2].index',
      'data.components[2].sub_type',
    ]);
  });
});
