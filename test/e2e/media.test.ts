import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { waitFor } from '@bm/platform/testing';
import { startIngress, type IngressFixture } from '../support/ingress';
import { orderUpdateData, sandboxSends, sendTemplate, waitForStatus } from '../support/messages';
import { createTenant, randomPhone, startStack, type Stack, type TenantFixture } from '../support/stack';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Reads any answer's body as bytes (superagent would parse or drop some types). */
function bytes(res: request.Response, done: (err: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

describe('the inbox media over the gateway: inbound items streamed from the upstream', () => {
  let stack: Stack;
  let ingress: IngressFixture;
  let t: TenantFixture;
  let other: TenantFixture;

  beforeAll(async () => {
    stack = await startStack();
    ingress = await startIngress(stack);
    t = await createTenant(stack);
    other = await createTenant(stack);
  });
  afterAll(async () => {
    await ingress.stop();
    await stack.stop();
  });

  const download = (mediaId: string, channelAccountId = t.channelAccountId, tenant = t) =>
    request(stack.gatewayUrl)
      .get(`/api/v1/media/${mediaId}?channel_account_id=${channelAccountId}`)
      .set(tenant.auth)
      .buffer(true)
      .parse(bytes);

  /** A customer sends an image through the sandbox; the media id as the tenant's thread shows it. */
  async function customerSendsImage(extra: Record<string, unknown> = {}): Promise<string> {
    const phone = randomPhone();
    const res = await request(stack.sandboxUrl)
      .post('/_sandbox/inbound')
      .send({ phone_number_id: t.phoneNumberId, from: phone, type: 'image', text: 'the box', ...extra })
      .expect(200);
    expect(res.body.delivered).toBe(true);
    return waitFor(
      async () => {
        const list = await request(stack.gatewayUrl)
          .get(`/api/v1/conversations?q=${phone}`)
          .set(t.auth)
          .expect(200);
        const c = (list.body.data.conversations as Json[]).find((x) => x.customer.phone === phone);
        if (!c) return undefined;
        const page = await request(stack.gatewayUrl)
          .get(`/api/v1/conversations/${c.id}/messages`)
          .set(t.auth)
          .expect(200);
        const image = (page.body.data.messages as Json[]).find((m) => m.type === 'image');
        return image?.media?.id as string | undefined;
      },
      { what: `the image from ${phone} in the thread` },
    );
  }

  it('when a customer sends an image, then the tenant downloads its bytes in its content type', async () => {
    // Above the gateway's one-write size: the answer streams through it.
    const file = randomBytes(400 * 1024);
    const mediaId = await customerSendsImage({
      media_base64: file.toString('base64'),
      mime_type: 'image/png',
    });

    const res = await download(mediaId).expect(200);

    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-length']).toBe(String(file.length));
    expect(res.headers['content-disposition']).toBe('attachment');
    expect(Buffer.compare(res.body as Buffer, file)).toBe(0);
  });

  it('when the upstream no longer has the item, or never had it, then it is 404 MEDIA_EXPIRED', async () => {
    const mediaId = await customerSendsImage();
    await download(mediaId).expect(200);
    await request(stack.sandboxUrl).delete(`/_sandbox/media/${mediaId}`).expect(200);

    for (const id of [mediaId, '987654321012345', 'not..an/id']) {
      const res = await request(stack.gatewayUrl)
        .get(`/api/v1/media/${encodeURIComponent(id)}?channel_account_id=${t.channelAccountId}`)
        .set(t.auth)
        .expect(404);
      expect(res.body).toEqual({
        success: false,
        error: { code: 'MEDIA_EXPIRED', message: expect.any(String) },
      });
    }
  });

  it("when the account is another tenant's, unknown or missing, then the item is not read", async () => {
    const mediaId = await customerSendsImage();

    const foreign = await download(mediaId, other.channelAccountId).expect(404);
    expect(JSON.parse(String(foreign.body))).toMatchObject({ error: { code: 'CHANNEL_ACCOUNT_NOT_FOUND' } });
    const unknown = await download(mediaId, '01ARZ3NDEKTSV4RRFFQ69G5FAV').expect(404);
    expect(JSON.parse(String(unknown.body))).toMatchObject({ error: { code: 'CHANNEL_ACCOUNT_NOT_FOUND' } });
    const missing = await request(stack.gatewayUrl).get(`/api/v1/media/${mediaId}`).set(t.auth).expect(422);
    expect(missing.body.error.code).toBe('VALIDATION_ERROR');
    // The other tenant's own account does not open this tenant's item either way round.
    await download(mediaId, t.channelAccountId, other).expect(404);
  });

  it('when the lookup or the download answers a redirect, then it is not followed and the answer is 502', async () => {
    for (const redirect of ['lookup', 'download']) {
      const mediaId = await customerSendsImage({ media_redirect: redirect });

      const res = await download(mediaId).expect(502);

      expect(JSON.parse(String(res.body))).toMatchObject({
        success: false,
        error: { code: 'UPSTREAM_ERROR' },
      });
    }
  });

  const upload = (file: Buffer, contentType: string, tenant = t, channelAccountId = t.channelAccountId) =>
    request(stack.gatewayUrl)
      .post('/api/v1/media')
      .set(tenant.auth)
      .field('channel_account_id', channelAccountId)
      .attach('file', file, { filename: 'the "box".png', contentType });

  it('when a file is uploaded, then its media id serves it back and a send carries it in its header', async () => {
    // Above the gateway's one-buffer size: the body streams through it and on to the upstream.
    const file = randomBytes(300 * 1024);

    const res = await upload(file, 'image/png').expect(201);

    const mediaId = res.body.data.media_id as string;
    expect(res.body).toEqual({ success: true, data: { media_id: expect.stringMatching(/^\d+$/) } });
    const back = await download(mediaId).expect(200);
    expect(back.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(back.body as Buffer, file)).toBe(0);

    const phone = randomPhone();
    const data = orderUpdateData('Ana', '#7');
    (data.components as Json[])[0].parameters = [{ type: 'image', image: { id: mediaId } }];
    const id = await sendTemplate(stack, t, { phone, data });
    await waitForStatus(stack, t, id, ['sent', 'delivered', 'read']);
    const [sent] = (await sandboxSends(stack, `to=${phone}`)) as unknown as Json[];
    expect(sent.body.template.components[0].parameters[0]).toEqual({ type: 'image', image: { id: mediaId } });
  });

  it('when an upload is too large for its type, not multipart, lacks its file or names a foreign account, then it is refused', async () => {
    const big = await upload(randomBytes(5 * 1024 * 1024 + 1), 'image/jpeg').expect(413);
    expect(big.body.error).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      details: { type: 'image', limit_bytes: 5 * 1024 * 1024 },
    });
    // The same size is a document's right.
    await upload(randomBytes(5 * 1024 * 1024 + 1), 'application/pdf').expect(201);

    const foreign = await upload(randomBytes(100), 'image/png', t, other.channelAccountId).expect(404);
    expect(foreign.body.error.code).toBe('CHANNEL_ACCOUNT_NOT_FOUND');
    const noFile = await request(stack.gatewayUrl)
      .post('/api/v1/media')
      .set(t.auth)
      .field('channel_account_id', t.channelAccountId)
      .expect(422);
    expect(noFile.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { errors: [{ field: 'file' }] },
    });
    const json = await request(stack.gatewayUrl)
      .post('/api/v1/media')
      .set(t.auth)
      .send({ channel_account_id: t.channelAccountId })
      .expect(415);
    expect(json.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });
});
