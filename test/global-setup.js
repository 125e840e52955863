// Each jest run gets its own database, queue prefix and cache prefix, so two runs never meet.
const { Client } = require('pg');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const LEVELS = ['silent', 'error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly'];

module.exports = async function globalSetup() {
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const admin = process.env.TEST_PG_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const database = `bm_test_${runId}`;
  const client = new Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE "${database}"`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${database}`;
  process.env.TEST_RUN_ID = runId;
  process.env.TEST_DATABASE = database;
  process.env.TEST_DATABASE_URL = url.toString();

  // The run's logs (test/support/log-capture.ts, child processes' child-*.log) and the secrets the tests
  // registered (test/support/secrets.ts), scanned by test/global-teardown.js.
  const logDir = path.join(os.tmpdir(), `bm-test-logs-${runId}`);
  fs.mkdirSync(logDir, { recursive: true });
  process.env.BM_TEST_LOG_DIR = logDir;
  // Services log at info at least, so the scan sees real traffic; the terminal keeps the level asked for
  // (TEST_LOG_LEVEL, silent by default): log-capture holds back the lines above it.
  const asked = LEVELS.includes(process.env.TEST_LOG_LEVEL) ? process.env.TEST_LOG_LEVEL : 'silent';
  process.env.BM_TEST_TERMINAL_LOG_LEVEL = asked;
  process.env.TEST_LOG_LEVEL = LEVELS.indexOf(asked) < LEVELS.indexOf('info') ? 'info' : asked;
};
