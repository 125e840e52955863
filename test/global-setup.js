// Each jest run gets its own database, queue prefix and cache prefix, so two runs never meet.
const { Client } = require('pg');
const { randomBytes } = require('node:crypto');

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
};
