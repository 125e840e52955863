import { appendFileSync } from 'node:fs';
import path from 'node:path';

const registered = new Set<string>();

/**
 * Records a secret a test created or configured (an API key, a token, a signing secret) for the log scan at the
 * end of the run (test/global-teardown.js): the run fails if any log it captured holds the value. Values shorter
 * than 8 characters are not looked for. Without a run directory (BM_TEST_LOG_DIR) nothing is recorded.
 */
export function registerSecret(name: string, value: string | undefined | null): void {
  const dir = process.env.BM_TEST_LOG_DIR;
  if (!dir || typeof value !== 'string' || value === '' || registered.has(value)) return;
  registered.add(value);
  appendFileSync(path.join(dir, 'secrets.jsonl'), `${JSON.stringify({ name, value })}\n`);
}
