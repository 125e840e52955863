import request from 'supertest';
import { uniqueSuffix } from '@bm/platform/testing';
import { ADMIN_TOKEN, createTenantWithKey } from './gateway';

export const PASSWORD = 'correct horse battery staple';

/** A new email no other test uses. */
export const newEmail = () => `user-${uniqueSuffix()}@example.com`.toLowerCase();

/** The token of an invite link (it travels in the fragment). */
export const tokenOf = (inviteUrl: string) => new URL(inviteUrl).hash.replace(/^#token=/, '');

/** The origin the browser would send for a page served by the gateway at `url`. */
export const sameOrigin = (url: string) => ({ Origin: new URL(url).origin });

export function invite(url: string, tenantId: number, email: string) {
  return request(url)
    .post(`/admin/v1/tenants/${tenantId}/users`)
    .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
    .send({ email });
}

export function setPassword(url: string, token: string, password = PASSWORD) {
  return request(url).post('/api/auth/set-password').set(sameOrigin(url)).send({ token, password });
}

export function signInRequest(url: string, email: string, password = PASSWORD) {
  return request(url).post('/api/auth/sign-in').set(sameOrigin(url)).send({ email, password });
}

export interface SignedIn {
  tenantId: number;
  apiKey: string;
  email: string;
  /** `bm_session=<id>`, ready for a Cookie header. */
  cookie: string;
  csrf: string;
  setCookie: string;
}

/** A new tenant (with an API key) and a dashboard user of it, invited, with a password, and signed in. */
export async function signedInUser(url: string): Promise<SignedIn> {
  const { tenantId, apiKey } = await createTenantWithKey(url);
  const email = newEmail();
  const invited = await invite(url, tenantId, email).expect(201);
  await setPassword(url, tokenOf(invited.body.data.invite_url as string)).expect(200);
  const res = await signInRequest(url, email).expect(200);
  const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0] ?? '';
  return {
    tenantId,
    apiKey,
    email,
    cookie: setCookie.split(';')[0],
    csrf: res.body.data.csrf_token as string,
    setCookie,
  };
}
