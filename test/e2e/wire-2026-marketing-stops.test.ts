import request from 'supertest';
import { waitFor } from '@bm/platform/testing';
import { orderUpdateData, postSend, sendTemplate, waitForStatus } from '../support/messages';
import { startIngress, type IngressFixture } from '../support/ingress';
import { createTenant, randomPhone, startStack, type Stack, type TenantFixture } from '../support/stack';

/**
 * CONTRACT.md, holds, errors and their rules: a customer who stopped marketing in WhatsApp (the upstream's 131050
 * on a send, or its `user_preferences` webhook) is on the opt-out list as `marketing_stop`, gets no MARKETING
 * template until they resume, and still gets UTILITY ones. Through the real path: sandbox -> webhook-ingress ->
 * messaging -> campaign (the opt-out list) -> messaging's copy.
 */
describe('marketing stops on the 2026 wire', () => {
  let stack: Stack;
  let ingress: IngressFixture;
  let t: TenantFixture;

  beforeAll(async () => {
    stack = await startStack({ campaignEnv: {} });
    ingress = await startIngress(stack);
    t = await createTenant(stack);
  });
  afterAll(async () => {
    await ingress.stop();
    await stack.stop();
  });

  const optOutOf = async (phone: string) => {
    const res = await request(stack.gatewayUrl)
      .get(`/api/v1/opt-outs?phone=${phone}`)
      .set(t.auth)
      .expect(200);
    return (res.body.data.opt_outs as Array<Record<string, unknown>>).find((o) => o.phone === phone);
  };
  const marketing = (phone: string) => postSend(stack, t, { phone, data: orderUpdateData('Ana', '#7') });

  it('when a send is refused with 131050, then it fails with that code and the customer gets no more marketing', async () => {
    const phone = randomPhone();
    await request(stack.sandboxUrl)
      .post('/_sandbox/faults')
      .send({ match: { to: phone }, error_code: 131050, times: 1 })
      .expect(201);
    const id = await sendTemplate(stack, t, { phone, data: orderUpdateData('Ana', '#1') });
    const failed = await waitForStatus(stack, t, id, ['failed']);
    expect(failed.error_code).toBe(131050);

    const stop = await waitFor(() => optOutOf(phone), { what: 'the marketing stop on the opt-out list' });
    expect(stop).toMatchObject({ phone, source: 'marketing_stop' });
    const refused = await marketing(phone);
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('RECIPIENT_OPTED_OUT');
    // A UTILITY template still goes.
    await sendTemplate(stack, t, { phone });
  });

  it('when the upstream says a customer stopped and then resumed marketing, then the opt-out comes and goes', async () => {
    const phone = randomPhone();
    const say = (value: string) =>
      request(stack.sandboxUrl)
        .post('/_sandbox/user-preferences')
        .send({ phone_number_id: t.phoneNumberId, from: phone, value, detail: 'User requested to stop' })
        .expect(200);
    expect((await say('stop')).body.delivered).toBe(true);
    const stop = await waitFor(() => optOutOf(phone), { what: 'the marketing stop from user_preferences' });
    expect(stop).toMatchObject({ source: 'marketing_stop' });
    await waitFor(async () => (await marketing(phone)).status === 422 || undefined, {
      what: 'marketing refused',
    });

    await say('resume');
    await waitFor(async () => ((await optOutOf(phone)) === undefined ? true : undefined), {
      what: 'the stop lifted',
    });
    await waitFor(async () => (await marketing(phone)).status === 202 || undefined, {
      what: 'marketing again',
    });
  });

  it("when the upstream's webhook with a customer's stop is answered, then the very next sends already honour it", async () => {
    const [byKeyword, byPreference] = [randomPhone(), randomPhone()];
    // A STOP typed by the customer: the sandbox answers once our 200 came back.
    const typed = await request(stack.sandboxUrl)
      .post('/_sandbox/inbound')
      .send({ phone_number_id: t.phoneNumberId, from: byKeyword, text: 'stop' })
      .expect(200);
    expect(typed.body.delivered).toBe(true);
    expect(await optOutOf(byKeyword)).toMatchObject({ phone: byKeyword, source: 'keyword' });
    expect((await marketing(byKeyword)).status).toBe(422);

    const said = await request(stack.sandboxUrl)
      .post('/_sandbox/user-preferences')
      .send({ phone_number_id: t.phoneNumberId, from: byPreference, value: 'stop' })
      .expect(200);
    expect(said.body.delivered).toBe(true);
    expect(await optOutOf(byPreference)).toMatchObject({ phone: byPreference, source: 'marketing_stop' });
    const refused = await marketing(byPreference);
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('RECIPIENT_OPTED_OUT');
  });
});
