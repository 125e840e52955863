import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium: the tests never download a browser. `apt-get install -y chromium` puts it here. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const DASHBOARD_DIST = join(__dirname, '..', '..', 'dist');

/** Headless Chromium with the flags a CI container needs and nothing that phones home. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  if (!existsSync(join(DASHBOARD_DIST, 'index.html'))) {
    throw new Error('services/dashboard/dist is missing: run pnpm build first');
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
