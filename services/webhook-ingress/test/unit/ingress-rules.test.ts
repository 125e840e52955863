import { createHmac } from 'node:crypto';
import { isoFromUnixSeconds } from '../../src/domain/inbound-item';
import { roughItemCount, splitWebhook } from '../../src/domain/split-webhook';
import { verifySignature } from '../../src/domain/verify-signature';

/* Ingress's pure rules, without a database or a broker: the upstream's signature, and how a verified body
 * becomes items (each with the dedupe key that makes a redelivered report the same item). */

const receivedAt = new Date('2026-11-28T10:00:00.000Z');

/** A `messages` change as the upstream sends it (WhatsApp Cloud API webhook envelope). */
function body(value: Record<string, unknown>) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

describe('signature', () => {
  const raw = Buffer.from('{"object":"whatsapp_business_account"}');
  const sign = (secret: string) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

  it('when the body is signed with the current or the previous app secret, then it says which', () => {
    const secrets = { current: 'now', previous: 'before' };
    expect(verifySignature(raw, sign('now'), secrets)).toBe('current');
    expect(verifySignature(raw, sign('before'), secrets)).toBe('previous');
  });

  it('when the signature is missing, malformed or made with another secret, then it is refused', () => {
    const secrets = { current: 'now' };
    expect(verifySignature(raw, undefined, secrets)).toBeUndefined();
    expect(verifySignature(raw, 'sha256=xyz', secrets)).toBeUndefined();
    expect(verifySignature(raw, sign('other'), secrets)).toBeUndefined();
    expect(verifySignature(Buffer.from('tampered'), sign('now'), secrets)).toBeUndefined();
  });
});

describe('splitting a verified body', () => {
  it('when a body holds a status receipt, then it is one status item keyed by message id and status', () => {
    const split = splitWebhook(
      body({
        statuses: [
          {
            id: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBJDQjZCMzlEQUE4OTJBMTE4RTUA',
            status: 'delivered',
            timestamp: '1764324000',
            recipient_id: '16505551234',
            biz_opaque_callback_data: 'bm1:42:1',
            pricing: { billable: true, pricing_model: 'PMP', type: 'regular', category: 'utility' },
          },
        ],
      }),
      receivedAt,
    );

    expect(split.skipped).toEqual([]);
    expect(split.items).toHaveLength(1);
    const [item] = split.items;
    expect(item.routingKey).toBe('inbound.status');
    expect(item.dedupeKey).toBe(
      'status:wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBJDQjZCMzlEQUE4OTJBMTE4RTUA:delivered',
    );
    expect(item.path).toBe('entry[0].changes[0].value.statuses[0]');
    expect(item.payload).toMatchObject({
      phone_number_id: '106540352242922',
      status: 'delivered',
      recipient_id: '16505551234',
      pricing_category: 'utility',
      biz_opaque_callback_data: 'bm1:42:1',
      occurred_at: '2025-11-28T10:00:00.000Z',
    });
  });

  it('when the same receipt comes again, then it has the same dedupe key', () => {
    const receipt = body({ statuses: [{ id: 'wamid.A', status: 'read', timestamp: '1764324000' }] });
    const first = splitWebhook(receipt, receivedAt).items[0];
    const again = splitWebhook(receipt, new Date()).items[0];
    expect(again.dedupeKey).toBe(first.dedupeKey);
  });

  it('when a part cannot be read, then it is skipped with its path and the rest still goes', () => {
    const split = splitWebhook(
      body({ statuses: ['not an object', { id: 'wamid.B', status: 'sent', timestamp: '1764324000' }] }),
      receivedAt,
    );
    expect(split.items).toHaveLength(1);
    expect(split.skipped).toEqual([
      { path: 'entry[0].changes[0].value.statuses[0]', reason: 'statuses entry is not an object' },
    ]);
    expect(splitWebhook({ nothing: true }, receivedAt).skipped).toEqual([
      { path: 'body', reason: 'no entry array' },
    ]);
  });

  it('when a body is counted before splitting, then each change counts its statuses and messages', () => {
    expect(roughItemCount(body({ statuses: [{}, {}], messages: [{}] }))).toBe(3);
    expect(roughItemCount(body({}))).toBe(1);
    expect(roughItemCount('junk')).toBe(0);
  });

  it('when the upstream writes a time as unix seconds, then it is ISO 8601; absent, the time received', () => {
    expect(isoFromUnixSeconds('1764324000', receivedAt)).toBe('2025-11-28T10:00:00.000Z');
    expect(isoFromUnixSeconds(1764324000, receivedAt)).toBe('2025-11-28T10:00:00.000Z');
    expect(isoFromUnixSeconds(undefined, receivedAt)).toBe(receivedAt.toISOString());
    expect(isoFromUnixSeconds('soon', receivedAt)).toBe(receivedAt.toISOString());
  });
});
