import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '@bm/platform';
import { logFileOfThisTest } from '../support/log-capture';
import { registerSecret } from '../support/secrets';

interface Secret {
  name: string;
  value: string;
}
interface Finding {
  file: string;
  name: string;
  count: number;
  line: number;
}
interface ScanResult {
  files: number;
  secrets: number;
  findings: Finding[];
}
const scan = require('../support/scan-secrets') as {
  readSecrets(dir: string): Secret[];
  distinctSecrets(entries: Secret[]): Secret[];
  findSecrets(text: string, secrets: Secret[]): Array<Omit<Finding, 'file'>>;
  scanLogDir(dir: string, secrets?: Secret[]): ScanResult;
  describeScan(result: ScanResult): string[];
};
const globalTeardown = require('../global-teardown') as () => Promise<void>;

const FAKE = 'fake-secret-0123456789abcdef';
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'bm-scan-test-'));
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs fn with these environment variables, put back afterwards (the run's own teardown reads them later). */
async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T> | T): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const set = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  set(vars);
  try {
    return await fn();
  } finally {
    set(saved);
  }
}

describe('findSecrets', () => {
  it('when a log line holds a secret, then its name, count and first line are given, and absent secrets are not', () => {
    const text = ['{"level":"info","message":"ok"}', `{"level":"warn","auth":"Bearer ${FAKE}"}`, FAKE].join(
      '\n',
    );
    expect(
      scan.findSecrets(text, [
        { name: 'fake', value: FAKE },
        { name: 'absent', value: 'absent-secret-0123456789' },
      ]),
    ).toEqual([{ name: 'fake', count: 2, line: 2 }]);
  });

  it('when a secret is written escaped inside a JSON string, then it is found too', () => {
    const value = 'sec"ret\\with-quotes';
    const text = JSON.stringify({ level: 'info', message: `key ${value}` });
    expect(scan.findSecrets(text, [{ name: 'quoted', value }])).toEqual([
      { name: 'quoted', count: 1, line: 1 },
    ]);
  });

  it('when secrets overlap or share a prefix, then each one is found where it is', () => {
    const secrets = [
      { name: 'short', value: 'prefix-01234' },
      { name: 'long', value: 'prefix-0123456789' },
      { name: 'other', value: 'prefix-99999' },
    ];
    expect(scan.findSecrets('x prefix-0123456789 y', secrets)).toEqual([
      { name: 'short', count: 1, line: 1 },
      { name: 'long', count: 1, line: 1 },
    ]);
  });
});

describe('distinctSecrets', () => {
  it('when values repeat or are shorter than 8 characters, then one entry per value of 8 or more is kept', () => {
    expect(
      scan.distinctSecrets([
        { name: 'first', value: 'same-value-123' },
        { name: 'again', value: 'same-value-123' },
        { name: 'tiny', value: 'abc1234' },
        { name: 'eight', value: 'abcd1234' },
      ]),
    ).toEqual([
      { name: 'first', value: 'same-value-123' },
      { name: 'eight', value: 'abcd1234' },
    ]);
  });
});

describe('scanLogDir', () => {
  it('when registered secrets are in some log files, then every *.log file is scanned and each finding is named', async () => {
    await withEnv({ BM_TEST_LOG_DIR: dir }, () => {
      registerSecret('fake key', FAKE);
      registerSecret('fake token', 'fake-token-abcdefgh');
      registerSecret('too short', 'short');
    });
    mkdirSync(path.join(dir, 'nested'));
    writeFileSync(path.join(dir, 'test__e2e__a.test.ts.log'), `{"level":"info","message":"clean"}\n`);
    writeFileSync(path.join(dir, 'child-messaging-0.log'), `{"level":"error"}\n{"key":"${FAKE}"}\n`);
    writeFileSync(path.join(dir, 'nested', 'child-gateway.log'), 'fake-token-abcdefgh\n');
    writeFileSync(path.join(dir, 'notes.txt'), `${FAKE}\n`);
    const result = scan.scanLogDir(dir);
    expect(result).toEqual({
      files: 3,
      secrets: 2,
      findings: [
        { file: 'child-messaging-0.log', name: 'fake key', count: 1, line: 2 },
        { file: path.join('nested', 'child-gateway.log'), name: 'fake token', count: 1, line: 1 },
      ],
    });
    expect(scan.describeScan(result)).toEqual([
      'log scan: 3 files, 2 secrets, 2 found',
      '  secret "fake key" is in child-messaging-0.log (line 2, 1 time)',
      `  secret "fake token" is in ${path.join('nested', 'child-gateway.log')} (line 1, 1 time)`,
    ]);
  });

  it('when a service logs a secret in a test, then the capture keeps the line and the scan finds it', () => {
    const file = logFileOfThisTest();
    expect(file).toBeDefined();
    const value = `captured-secret-${Date.now()}`;
    // Not registered: the run's own scan must not fail because of this deliberate leak.
    createLogger('scan-secrets-test', 'info').info(`leaking ${value}`);
    expect(readFileSync(file!, 'utf8')).toContain(value);
    const result = scan.scanLogDir(process.env.BM_TEST_LOG_DIR!, [{ name: 'deliberate leak', value }]);
    expect(result.findings).toEqual([
      expect.objectContaining({ file: path.basename(file!), name: 'deliberate leak', count: 1 }),
    ]);
  });
});

describe('global teardown', () => {
  it('when a registered secret is in a log, then the teardown fails naming it, and still removes the logs', async () => {
    writeFileSync(path.join(dir, 'secrets.jsonl'), `${JSON.stringify({ name: 'fake key', value: FAKE })}\n`);
    writeFileSync(path.join(dir, 'test__e2e__leaky.test.ts.log'), `{"message":"key ${FAKE}"}\n`);
    const printed: string[] = [];
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      printed.push(String(chunk));
      return true;
    });
    try {
      // No TEST_DATABASE: the run's database is not this test's to drop.
      await withEnv(
        { BM_TEST_LOG_DIR: dir, TEST_DATABASE: undefined, KEEP_TEST_LOGS: undefined },
        async () => {
          await expect(globalTeardown()).rejects.toThrow(
            /secret "fake key" is in test__e2e__leaky\.test\.ts\.log/,
          );
        },
      );
    } finally {
      write.mockRestore();
    }
    expect(printed.join('')).toContain('log scan: 1 files, 1 secrets, 1 found');
    expect(existsSync(dir)).toBe(false);
  });

  it('when no registered secret is in the logs, then the teardown passes and removes the logs', async () => {
    writeFileSync(path.join(dir, 'secrets.jsonl'), `${JSON.stringify({ name: 'fake key', value: FAKE })}\n`);
    writeFileSync(path.join(dir, 'test__e2e__clean.test.ts.log'), '{"message":"key [redacted]"}\n');
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      await withEnv({ BM_TEST_LOG_DIR: dir, TEST_DATABASE: undefined, KEEP_TEST_LOGS: undefined }, () =>
        globalTeardown(),
      );
    } finally {
      write.mockRestore();
    }
    expect(existsSync(dir)).toBe(false);
  });
});
