/** One jest run over every package; tests use the TypeScript sources of the libraries directly. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/libs', '<rootDir>/services', '<rootDir>/test'],
  testMatch: ['**/test/**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }] },
  moduleNameMapper: {
    '^@bm/contracts$': '<rootDir>/libs/contracts/src/index.ts',
    '^@bm/platform$': '<rootDir>/libs/platform/src/index.ts',
    '^@bm/platform/testing$': '<rootDir>/libs/platform/src/testing/index.ts',
    '^@bm/client$': '<rootDir>/libs/client/src/index.ts',
    '^@bm/client/webhooks$': '<rootDir>/libs/client/src/webhooks.ts',
  },
  globalSetup: '<rootDir>/test/global-setup.js',
  // Copies what the services log to the run's log directory, scanned for secrets by the global teardown.
  setupFilesAfterEnv: ['<rootDir>/test/support/log-capture.ts'],
  globalTeardown: '<rootDir>/test/global-teardown.js',
  testTimeout: 30000,
  // `--shard=i/n` splits by measured time (npm test runs two shards side by side).
  testSequencer: '<rootDir>/test/shard-sequencer.js',
  reporters: ['default', '<rootDir>/test/summary-reporter.js'],
};
