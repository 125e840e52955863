import {
  bodyWith,
  uniquePhoneNumberId,
  uniqueRecipient,
  useSandbox,
  type TemplateRef,
} from './support/sandbox';

const ORDER_COMPONENTS = [
  { type: 'header', parameters: [{ type: 'image', image: { link: 'https://example.com/a.jpg' } }] },
  bodyWith('Mark', '#123'),
];

describe('template sends', () => {
  const sbx = useSandbox();
  const sendFromFreshNumber = (template: TemplateRef) =>
    sbx.sendTemplate(uniquePhoneNumberId(), uniqueRecipient(), template);

  it('when the template and its parameters match, then the send is accepted', async () => {
    const res = await sendFromFreshNumber({ name: 'order_update', components: ORDER_COMPONENTS });

    expect(res.status).toBe(200);
    expect(res.data.messages[0].id).toMatch(/^wamid\./);
  });

  it('when the template does not exist in that language, then it answers 132001', async () => {
    const res = await sendFromFreshNumber({ name: 'hello_world', language: 'fr_FR' });

    expect(res.data.error.code).toBe(132001);
    expect(res.data.error.error_data.details).toContain('fr_FR');
  });

  it('when the template is still pending, then it answers 132001', async () => {
    const res = await sendFromFreshNumber({ name: 'pending_tpl', components: [bodyWith('Monday')] });

    expect(res.data.error.code).toBe(132001);
  });

  it('when the body parameters are fewer than the placeholders, then it answers 132000', async () => {
    const res = await sendFromFreshNumber({
      name: 'order_update',
      components: [ORDER_COMPONENTS[0], bodyWith('Mark')],
    });

    expect(res.status).toBe(400);
    expect(res.data.error.code).toBe(132000);
  });

  it('when parameters are sent to a template without placeholders, then it answers 132000', async () => {
    const res = await sendFromFreshNumber({ name: 'hello_world', components: [bodyWith('extra')] });

    expect(res.data.error.code).toBe(132000);
  });

  it('when the template is paused, then it answers 132015', async () => {
    const res = await sendFromFreshNumber({ name: 'promo_paused', components: [bodyWith('Mark')] });

    expect(res.status).toBe(400);
    expect(res.data.error.code).toBe(132015);
  });

  it('when the template is disabled, then it answers 132016', async () => {
    const res = await sendFromFreshNumber({ name: 'disabled_tpl' });

    expect(res.data.error.code).toBe(132016);
  });

  it('when the image header is left out, then it answers 132012', async () => {
    const res = await sendFromFreshNumber({ name: 'order_update', components: [ORDER_COMPONENTS[1]] });

    expect(res.data.error.code).toBe(132012);
  });

  it('when a registered number sends a template only another WABA has, then it answers 132001', async () => {
    const phoneNumberId = uniquePhoneNumberId();
    await sbx.http.put(`/_sandbox/numbers/${phoneNumberId}`, { waba_id: `waba-own-${phoneNumberId}` });
    await sbx.http.put(`/_sandbox/templates/waba-own-${phoneNumberId}`, { data: [] });
    await sbx.http.put(`/_sandbox/templates/waba-other-${phoneNumberId}`, {
      data: [
        {
          name: `only_other_${phoneNumberId}`,
          category: 'UTILITY',
          components: [{ type: 'BODY', text: 'Hi' }],
        },
      ],
    });

    const own = await sbx.sendTemplate(phoneNumberId, uniqueRecipient(), {
      name: `only_other_${phoneNumberId}`,
    });
    const unknownNumber = await sendFromFreshNumber({ name: `only_other_${phoneNumberId}` });

    expect(own.data.error.code).toBe(132001);
    expect(unknownNumber.status).toBe(200);
  });
});
