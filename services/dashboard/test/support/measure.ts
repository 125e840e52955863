import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { DASHBOARD_DIST } from './browser';

/** Gzipped bytes of every script the first screen loads (the build has one entry chunk and no lazy ones). */
export function firstScreenScriptGzipBytes(): number {
  const assets = join(DASHBOARD_DIST, 'assets');
  return readdirSync(assets)
    .filter((f) => f.endsWith('.js'))
    .reduce((sum, f) => sum + gzipSync(readFileSync(join(assets, f)), { level: 9 }).length, 0);
}

/** Milliseconds of script the page ran so far (Chromium's own ScriptDuration, through the DevTools protocol). */
export async function scriptTimer(page: Page): Promise<() => Promise<number>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const read = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return (metrics.find((m) => m.name === 'ScriptDuration')?.value ?? 0) * 1000;
  };
  const start = await read();
  return async () => (await read()) - start;
}

/** Figures the browser test reports; written to a JSON file for BENCHMARKS.md. */
export const figures: Record<string, number> = {};
