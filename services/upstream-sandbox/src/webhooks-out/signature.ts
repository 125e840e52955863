import { createHmac } from 'node:crypto';

/** The upstream's `X-Hub-Signature-256` value: `sha256=` and the lower-case hex HMAC of the raw body. */
export function signBody(rawBody: string | Buffer, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}
