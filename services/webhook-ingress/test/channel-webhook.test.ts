import request from 'supertest';
import { ADMIN, useIngress } from './factories/ingress';
import {
  PREVIOUS_APP_SECRET,
  contact,
  inboundTextBody,
  numberBody,
  sign,
  textMessage,
  upstreamId,
  wamid,
} from './factories/webhooks';

const THREE_MB = 3 * 1024 * 1024;

describe('/api/webhooks/channel: verification, signatures and body limits', () => {
  const phoneNumberId = upstreamId();
  const ingress = useIngress({ numbers: [phoneNumberId] });

  const verify = (query: string) => request(ingress.url).get(`/api/webhooks/channel?${query}`);

  it('when the upstream verifies with the token, then the challenge comes back as plain text', async () => {
    const res = await verify('hub.mode=subscribe&hub.verify_token=dev-verify-token&hub.challenge=1158201444');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toBe('1158201444');
  });

  it.each([
    ['a wrong token', 'hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1'],
    ['another mode', 'hub.mode=unsubscribe&hub.verify_token=dev-verify-token&hub.challenge=1'],
    ['no token', 'hub.mode=subscribe&hub.challenge=1'],
    ['no challenge', 'hub.mode=subscribe&hub.verify_token=dev-verify-token'],
  ])('when the verification has %s, then 403 VERIFICATION_FAILED', async (_case, query) => {
    const res = await verify(query);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      success: false,
      error: { code: 'VERIFICATION_FAILED', message: expect.any(String) },
    });
  });

  it.each([
    ['no signature', () => null],
    ['a signature made with another secret', (raw: string) => sign(raw, 'another-secret')],
    ['a malformed signature', (raw: string) => sign(raw).replace('sha256=', 'sha1=')],
    ['a truncated signature', (raw: string) => sign(raw).slice(0, -2)],
  ])(
    'when a POST carries %s, then 401 INVALID_SIGNATURE and nothing is stored',
    async (_case, signatureOf) => {
      const raw = JSON.stringify(inboundTextBody(phoneNumberId, upstreamId(), 'hello'));
      const res = await ingress.post(raw, { signature: signatureOf(raw) });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('INVALID_SIGNATURE');
      expect(await ingress.storedWithBody(raw)).toBe(0);
    },
  );

  it('when the body was re-serialized after signing, then 401: the signature covers the exact bytes', async () => {
    const body = inboundTextBody(phoneNumberId, upstreamId(), 'caf\u00e9');
    const signedAs = JSON.stringify(body, null, 2);
    const sent = JSON.stringify(body);
    const res = await ingress.post(sent, { signature: sign(signedAs) });
    expect(res.status).toBe(401);
    expect(await ingress.storedWithBody(sent)).toBe(0);
  });

  it('when the body is signed with the previous app secret (rotation), then it is accepted', async () => {
    const raw = JSON.stringify(inboundTextBody(phoneNumberId, upstreamId(), 'rotated'));
    const res = await ingress.post(raw, { signature: sign(raw, PREVIOUS_APP_SECRET) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { received: true, event_id: expect.any(String) } });
    const stored = await request(ingress.url)
      .get(`/admin/v1/inbound-events/${res.body.data.event_id}`)
      .set(ADMIN);
    expect(stored.body.data.signed_with).toBe('previous');
  });

  it('when the body holds emoji, non-Latin script and JSON escapes, then the exact bytes verify and the text arrives decoded', async () => {
    const from = upstreamId();
    const id = wamid();
    const raw = String.raw`{"object":"whatsapp_business_account","entry":[{"id":"1","changes":[{"field":"messages","value":{"messaging_product":"whatsapp","metadata":{"display_phone_number":"15550783881","phone_number_id":"${phoneNumberId}"},"contacts":[{"profile":{"name":"Jos\u00e9 \ud83d\ude00"},"wa_id":"${from}"}],"messages":[{"from":"${from}","id":"${id}","timestamp":"1749416383","type":"text","text":{"body":"caf\u00e9 😀 \"q\" \\ \/ مرحبا\n"}}]}}]}]}`;
    await ingress.post(raw).expect(200);
    const [item] = await ingress.waitForPublished('message_id', id);
    expect(item.payload.text).toBe('café 😀 "q" \\ / مرحبا\n');
    expect(item.payload.name).toBe('José 😀');
    expect(await ingress.storedWithBody(raw)).toBe(1);
  });

  it('when the signed body is not JSON, then 400 INVALID_JSON and nothing is stored', async () => {
    const raw = '{"object":"whatsapp_business_account",';
    const res = await ingress.post(raw);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_JSON');
    expect(await ingress.storedWithBody(raw)).toBe(0);
  });

  it('when a batch is exactly 3 MB, then it is accepted and split; one byte more is 413 PAYLOAD_TOO_LARGE', async () => {
    const from = upstreamId();
    const long = 'x'.repeat(4096);
    const messages = Array.from({ length: 740 }, () => textMessage(from, long));
    const json = JSON.stringify(numberBody(phoneNumberId, { contacts: [contact(from, 'Big')], messages }));
    expect(json.length).toBeLessThan(THREE_MB);
    const raw = json.padEnd(THREE_MB, ' '); // whitespace after the value is still the same JSON
    const accepted = await ingress.post(raw).expect(200);
    const tooLarge = await ingress.post(`${raw} `);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    await ingress.waitForPublished('from', from, messages.length);
    const stored = await request(ingress.url)
      .get(`/admin/v1/inbound-events/${accepted.body.data.event_id}`)
      .set(ADMIN)
      .expect(200);
    expect(stored.body.data).toMatchObject({ outcome: 'processed', item_count: 740, published_count: 740 });
    expect(stored.body.data.body_bytes).toBe(THREE_MB);
  });

  it('when a delivery is stored, then its headers are kept without the signature or any credential', async () => {
    const raw = JSON.stringify(inboundTextBody(phoneNumberId, upstreamId(), 'headers'));
    const res = await ingress
      .post(raw)
      .set('User-Agent', 'facebookexternalua')
      .set('x-internal-token', ADMIN['x-internal-token'])
      .expect(200);
    const stored = await request(ingress.url)
      .get(`/admin/v1/inbound-events/${res.body.data.event_id}`)
      .set(ADMIN);
    expect(stored.body.data.headers['user-agent']).toBe('facebookexternalua');
    expect(stored.body.data.headers).not.toHaveProperty('x-hub-signature-256');
    expect(stored.body.data.headers).not.toHaveProperty('x-internal-token');
    expect(stored.body.data.raw_body).toBe(raw);
  });
});
