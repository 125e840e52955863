import { listTemplatesQuerySchema, submitTemplateSchema } from '@bm/contracts';
import { AppError, validate } from '@bm/platform';

const ACCOUNT = '01JD7S5Q4W2N8V0YB3C6E9F1GH';

function fields(body: unknown): string[] {
  try {
    validate(submitTemplateSchema, body);
  } catch (error) {
    if (error instanceof AppError)
      return (error.details?.errors as Array<{ field: string }>).map((e) => e.field);
    throw error;
  }
  return [];
}

const template = (overrides: Record<string, unknown> = {}) => ({
  channel_account_id: ACCOUNT,
  name: 'order_update',
  language: 'en_US',
  category: 'marketing',
  components: [
    { type: 'header', format: 'image', example: { header_handle: ['https://e.com/a.jpg'] } },
    { type: 'BODY', text: 'Hi {{1}}', example: { body_text: [['Mark']] } },
    { type: 'BUTTONS', buttons: [{ type: 'url', text: 'Track', url: 'https://e.com/{{1}}' }] },
  ],
  ...overrides,
});

describe('submitTemplateSchema', () => {
  it('when a template is valid in any case, then types, formats and category come out upper case', () => {
    const value = validate(submitTemplateSchema, template());
    expect(value.category).toBe('MARKETING');
    expect(value.components.map((c) => c.type)).toEqual(['HEADER', 'BODY', 'BUTTONS']);
    expect(value.components[0].format).toBe('IMAGE');
    expect(value.components[2].buttons?.[0].type).toBe('URL');
  });

  it('when the name is not lower snake case, then name is refused', () => {
    expect(fields(template({ name: 'Order Update' }))).toEqual(['name']);
  });

  it('when there is no BODY, then components is refused', () => {
    expect(fields(template({ components: [{ type: 'FOOTER', text: 'bye' }] }))).toEqual(['components']);
  });

  it('when a text header lacks text or a media header has text, then the header text is named', () => {
    expect(
      fields(
        template({
          components: [
            { type: 'HEADER', format: 'TEXT' },
            { type: 'BODY', text: 'x' },
          ],
        }),
      ),
    ).toEqual(['components[0].text']);
    expect(
      fields(
        template({
          components: [
            { type: 'HEADER', format: 'IMAGE', text: 'x' },
            { type: 'BODY', text: 'x' },
          ],
        }),
      ),
    ).toEqual(['components[0].text']);
  });

  it('when a component type repeats or the category is unknown, then both are named', () => {
    const components = [
      { type: 'BODY', text: 'a' },
      { type: 'body', text: 'b' },
    ];
    expect(fields(template({ components, category: 'PROMO' })).sort()).toEqual(['category', 'components[1]']);
  });
});

describe('listTemplatesQuerySchema', () => {
  it('when status is lower case, then it is read as the upstream upper case', () => {
    expect(validate(listTemplatesQuerySchema, { status: 'approved' })).toEqual({ status: 'APPROVED' });
  });
});
