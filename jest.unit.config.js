/**
 * The fast tests of pure rules alone (`pnpm test:unit`): every `test/unit/` folder, no database, broker or
 * service, so no global setup. `npm test` runs them too, with everything else.
 */
const base = require('./jest.config');

module.exports = {
  testEnvironment: base.testEnvironment,
  roots: base.roots,
  testMatch: ['**/test/unit/**/*.test.ts'],
  // The secret scan checks the suite's own log capture, which the full run's global setup provides.
  testPathIgnorePatterns: ['/node_modules/', '/test/unit/scan-secrets\\.test\\.ts$'],
  transform: base.transform,
  moduleNameMapper: base.moduleNameMapper,
};
