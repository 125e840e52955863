import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_TOKEN } from '../../../../test/support/stack';

export const PASSWORD = 'a long enough dashboard password';

/** Invites a dashboard user of the tenant through the operator API; answers the invite link. */
export async function inviteUrl(
  gatewayUrl: string,
  tenantId: number,
): Promise<{ email: string; url: string }> {
  const email = `owner-${tenantId}-${Date.now()}@example.com`;
  const res = await request(gatewayUrl)
    .post(`/admin/v1/tenants/${tenantId}/users`)
    .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
    .send({ email })
    .expect(201);
  return { email, url: res.body.data.invite_url as string };
}

/** A new desktop-sized page signed in as a new user of the tenant (invite, set password: signed in). */
export async function signedInPage(browser: Browser, gatewayUrl: string, tenantId: number): Promise<Page> {
  const invite = await inviteUrl(gatewayUrl, tenantId);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(invite.url);
  await page.getByLabel('New password').fill(PASSWORD);
  await page.getByLabel('Repeat it').fill(PASSWORD);
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
  return page;
}
