import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { DASHBOARD_DIST } from './browser';

const gzipOf = (file: string) =>
  gzipSync(readFileSync(join(DASHBOARD_DIST, 'assets', file)), { level: 9 }).length;

/** Gzipped bytes of the scripts index.html loads (the entry and what it preloads; lazy screens are not). */
export function firstScreenScriptGzipBytes(): number {
  const html = readFileSync(join(DASHBOARD_DIST, 'index.html'), 'utf8');
  const files = [...html.matchAll(/\/assets\/([^"]+\.js)"/g)].map((m) => m[1]);
  return files.reduce((sum, f) => sum + gzipOf(f), 0);
}

/** The scripts a page has loaded so far (the entry and any lazy screen's chunks) and their gzipped bytes. */
export async function firstScreenScript(page: Page): Promise<{ files: string[]; gzipBytes: number }> {
  const urls = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
  const built = new Set(readdirSync(join(DASHBOARD_DIST, 'assets')));
  const files = [...new Set(urls.map((u) => /\/dashboard\/assets\/([^/?#]+\.js)$/.exec(u)?.[1]))].filter(
    (f): f is string => f !== undefined && built.has(f),
  );
  return { files, gzipBytes: files.reduce((sum, f) => sum + gzipOf(f), 0) };
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
