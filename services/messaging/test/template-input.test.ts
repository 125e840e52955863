import { toTemplateInput } from '../src/domain/accounts/connect-channel-account.use-case';

describe('templates as the upstream lists them', () => {
  it('when a template carries every field, then header format and sample media come from its HEADER', () => {
    expect(
      toTemplateInput({
        id: '920070352646140',
        name: 'order_update',
        language: 'en_US',
        status: 'approved',
        category: 'marketing',
        components: [
          { type: 'HEADER', format: 'image', example: { header_handle: ['https://example.com/a.png'] } },
          { type: 'BODY', text: 'Hi {{1}}' },
        ],
      }),
    ).toEqual({
      upstreamId: '920070352646140',
      name: 'order_update',
      language: 'en_US',
      status: 'APPROVED',
      category: 'MARKETING',
      headerFormat: 'IMAGE',
      headerSampleMediaUrl: 'https://example.com/a.png',
      components: [
        { type: 'HEADER', format: 'image', example: { header_handle: ['https://example.com/a.png'] } },
        { type: 'BODY', text: 'Hi {{1}}' },
      ],
    });
  });

  it('when another implementation leaves fields out, then the template is still kept, conservatively', () => {
    expect(toTemplateInput({ name: 'hello_world', language: 'en_US' })).toEqual({
      upstreamId: null,
      name: 'hello_world',
      language: 'en_US',
      status: 'PENDING',
      category: 'UTILITY',
      headerFormat: null,
      headerSampleMediaUrl: null,
      components: [],
    });
  });

  it('when an entry has no name or language, then it is skipped (it could never be sent)', () => {
    expect(toTemplateInput({ language: 'en_US', status: 'APPROVED' })).toBeNull();
    expect(toTemplateInput({ name: 'x', status: 'APPROVED' })).toBeNull();
  });
});
