import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';

/** Where the screenshots go: the docs show the dashboard as the tests last saw it. */
export const SHOTS = join(__dirname, '..', '..', '..', '..', 'docs', 'dashboard');

export const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

/** Every form control on the page that no label names (there should be none). */
export const unlabelled = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('input, select, textarea')]
      .filter((el) => (el as HTMLInputElement).labels?.length === 0 && !el.getAttribute('aria-label'))
      .map((el) => el.outerHTML),
  );

/**
 * Opens each screen (path under `base`, screenshot name) at 390x844 with the session of `signedIn`, expects
 * nothing to overflow sideways and takes its `-390` screenshot.
 */
export async function expectNoSidewaysOverflow(
  browser: Browser,
  signedIn: BrowserContext,
  base: string,
  screens: Array<[path: string, name: string]>,
): Promise<void> {
  const phoneSized = await browser.newContext({
    viewport: { width: 390, height: 844 },
    storageState: await signedIn.storageState(),
  });
  const p = await phoneSized.newPage();
  for (const [path, name] of screens) {
    await p.goto(`${base}${path}`);
    await p.locator('main h1').waitFor();
    await p.waitForLoadState('networkidle');
    const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect({ path, overflow }).toEqual({ path, overflow: 0 });
    await shot(p, `${name}-390`);
  }
  await phoneSized.close();
}
