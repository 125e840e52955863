import { inboundContentOf } from '../../src/domain/conversations/inbound-content';

describe("a customer's message as the inbox thread shows it", () => {
  it('when it is a location, contacts or a reaction, then each is modelled and nothing is left raw', () => {
    expect(
      inboundContentOf('location', {
        type: 'location',
        location: { latitude: 38.72, longitude: '-9.14', name: 'Shop', address: 'Rua 1' },
        context: { id: 'wamid.ctx' },
      }),
    ).toMatchObject({
      location: { latitude: 38.72, longitude: -9.14, name: 'Shop', address: 'Rua 1', url: null },
      context_message_id: 'wamid.ctx',
      raw: null,
    });
    const card = { name: { formatted_name: 'Ana' }, phones: [{ phone: '+351 91' }] };
    expect(inboundContentOf('contacts', { type: 'contacts', contacts: [card] })).toMatchObject({
      contacts: [card],
      raw: null,
    });
    expect(
      inboundContentOf('reaction', { type: 'reaction', reaction: { message_id: 'wamid.1', emoji: '👍' } }),
    ).toMatchObject({ reaction: { message_id: 'wamid.1', emoji: '👍' }, raw: null });
  });

  it('when it answers a button or a list, then the reply carries its id, title and payload', () => {
    expect(
      inboundContentOf('interactive', {
        type: 'interactive',
        interactive: { type: 'list_reply', list_reply: { id: 'row-2', title: 'Returns' } },
      }),
    ).toMatchObject({
      text: 'Returns',
      reply: { type: 'list_reply', id: 'row-2', title: 'Returns', payload: null },
    });
    expect(
      inboundContentOf('button', {
        type: 'button',
        button: { payload: 'STOP_PROMOS', text: 'Stop promotions' },
      }),
    ).toMatchObject({
      text: 'Stop promotions',
      reply: { type: 'button', id: null, title: 'Stop promotions', payload: 'STOP_PROMOS' },
    });
  });

  it('when it is a document or a type not modelled, then the media is kept by id and the rest raw', () => {
    expect(
      inboundContentOf('document', {
        type: 'document',
        document: { id: 'm1', mime_type: 'application/pdf', filename: 'invoice.pdf', sha256: 'h' },
      }).media,
    ).toEqual({
      id: 'm1',
      url: null,
      mime_type: 'application/pdf',
      caption: null,
      filename: 'invoice.pdf',
      sha256: 'h',
    });
    const order = { type: 'order', order: { catalog_id: 'c', product_items: [] } };
    expect(inboundContentOf('order', order)).toMatchObject({ text: null, media: null, raw: order });
  });
});
