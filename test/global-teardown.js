const { Client } = require('pg');

module.exports = async function globalTeardown() {
  const database = process.env.TEST_DATABASE;
  if (!database || process.env.KEEP_TEST_DATABASE) return;
  const client = new Client({
    connectionString: process.env.TEST_PG_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await client.end();
};
