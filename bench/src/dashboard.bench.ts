import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const TEST = 'services/dashboard/test/dashboard.browser.test.ts';
const FIGURES = join(ROOT, 'docs', 'dashboard', 'figures.json');

/** What the dashboard's browser test records while it drives the real stack in Debian's Chromium. */
export interface DashboardFigures {
  first_screen_js_gzip_kb: number;
  first_screen_interactive_ms: number;
  render_100_rows_numbers_script_ms: number;
  render_100_rows_health_script_ms: number;
  render_100_rows_messages_script_ms: number;
  render_100_rows_api_keys_script_ms: number;
}

/** Runs the dashboard's browser test (it writes docs/dashboard/figures.json) and reads what it measured. */
export function benchDashboard(): Promise<DashboardFigures> {
  const before = Date.now();
  const run = spawnSync(join(ROOT, 'node_modules', '.bin', 'jest'), ['--runInBand', TEST], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (run.status !== 0) throw new Error(`${TEST} failed (exit ${run.status}): no dashboard figures`);
  process.stdout.write(`dashboard browser test: ${((Date.now() - before) / 1000).toFixed(0)} s\n`);
  return Promise.resolve(JSON.parse(readFileSync(FIGURES, 'utf8')) as DashboardFigures);
}

/** The benchmarks report's section of a result. */
export function dashboardReport(f: DashboardFigures): string {
  const rows = (name: string, value: number) =>
    `| ${name}, 100 rows | ${value} ms script | 100 ms | Chromium's ScriptDuration (DevTools protocol) from the navigation click to 100 rendered rows, network routed to 100-row fixtures |`;
  return `## Dashboard (targets: first screen JS <= 200 KB gzip, interactive <= 1 s, 100 rows <= 100 ms of script)

Measured by the browser test (\`${TEST}\`) in Debian's headless Chromium against the whole local stack;
\`docs/dashboard/figures.json\` holds the figures. The interactive time counts from navigation, so the page load
itself is inside it.

| figure | measured | target | how |
|---|---|---|---|
| JavaScript for the first screen, gzip | ${f.first_screen_js_gzip_kb} KB | 200 KB | every script the first screen loads, gzip -9 |
| first screen interactive after navigation | ${f.first_screen_interactive_ms} ms | 1,000 ms | \`performance.now()\` once the Overview's capacity row from the API is shown and Sign out is enabled, signed in, fresh page |
${rows('Numbers', f.render_100_rows_numbers_script_ms)}
${rows('Health monitor', f.render_100_rows_health_script_ms)}
${rows('Sent messages', f.render_100_rows_messages_script_ms)}
${rows('API keys', f.render_100_rows_api_keys_script_ms)}
`;
}
