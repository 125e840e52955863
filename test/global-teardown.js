const fs = require('node:fs');
const { Client } = require('pg');
const { describeScan, scanLogDir } = require('./support/scan-secrets');

/** Scans the run's logs for the registered secrets, drops the run's database, removes the logs; throws on a leak. */
module.exports = async function globalTeardown() {
  const logDir = process.env.BM_TEST_LOG_DIR;
  let leaks = [];
  try {
    if (logDir && fs.existsSync(logDir)) {
      const result = scanLogDir(logDir);
      const lines = describeScan(result);
      process.stdout.write(`${lines.join('\n')}\n`);
      leaks = lines.slice(1);
    }
  } finally {
    await dropDatabase();
    if (logDir && !process.env.KEEP_TEST_LOGS) fs.rmSync(logDir, { recursive: true, force: true });
  }
  if (leaks.length > 0) {
    // Jest exits non-zero when globalTeardown throws.
    throw new Error(
      `secrets found in the test run's logs:\n${leaks.join('\n')}\n` +
        (process.env.KEEP_TEST_LOGS
          ? `logs kept in ${logDir}`
          : 'run again with KEEP_TEST_LOGS=1 to keep the logs'),
    );
  }
};

async function dropDatabase() {
  const database = process.env.TEST_DATABASE;
  if (!database || process.env.KEEP_TEST_DATABASE) return;
  const client = new Client({
    connectionString: process.env.TEST_PG_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await client.end();
}
