/**
 * Jest setupFilesAfterEnv: keeps a copy of every log line the services of a test file write, in
 * `${BM_TEST_LOG_DIR}/<test file>.log`, for the run's secret scan (test/global-teardown.js).
 *
 * winston's Console transport writes to `console._stdout` (`console._stderr` for stderr levels), and only falls
 * back to console.log when a console has no such stream. Under jest every console has one: with a single test file
 * jest's CustomConsole, whose `_stdout` is process.stdout; otherwise a BufferedConsole per test file, whose
 * `_stdout` is an object that buffers what jest prints after the file. This module wraps those streams' write.
 *
 * It is a tee: winston's JSON lines are copied to the file, and everything still goes on to the stream, except log
 * lines above BM_TEST_TERMINAL_LOG_LEVEL. test/global-setup.js raises TEST_LOG_LEVEL (to at least info) so the scan
 * sees real traffic, and sets BM_TEST_TERMINAL_LOG_LEVEL to the level asked for before (silent unless
 * TEST_LOG_LEVEL was given), so the terminal shows what it showed before the raise.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** winston's npm levels, most severe first. */
const LEVELS: Record<string, number> = {
  error: 0,
  warn: 1,
  info: 2,
  http: 3,
  verbose: 4,
  debug: 5,
  silly: 6,
};
const STATE = Symbol.for('bm.test.log-capture');

type Write = (chunk: unknown, encoding?: unknown, callback?: unknown) => boolean;
interface Stream {
  write: Write;
  [STATE]?: { file?: string };
}

const ROOT = path.resolve(__dirname, '../..');

/** The log file of the running test file, undefined outside a run with a log directory. */
export function logFileOfThisTest(): string | undefined {
  const dir = process.env.BM_TEST_LOG_DIR;
  const testPath = expect.getState().testPath;
  if (!dir || !testPath) return undefined;
  return path.join(dir, `${path.relative(ROOT, testPath).replace(/[\\/:]/g, '__')}.log`);
}

/** What the services of this test file have logged so far (the lines copied to its log file). */
export function capturedLogText(): string {
  const file = logFileOfThisTest();
  try {
    return file ? readFileSync(file, 'utf8') : '';
  } catch {
    return '';
  }
}

/** The level of a winston JSON line, undefined for anything else. */
function logLevelOf(text: string): string | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    const line = JSON.parse(text) as unknown;
    const level = (line as { level?: unknown } | null)?.level;
    return typeof level === 'string' && level in LEVELS ? level : undefined;
  } catch {
    return undefined;
  }
}

const terminalLevel = process.env.BM_TEST_TERMINAL_LOG_LEVEL;

/** Whether a log line of this level would have reached the terminal at the level asked for. */
function shownOnTerminal(level: string): boolean {
  if (terminalLevel === undefined) return true;
  if (terminalLevel === 'silent') return false;
  return LEVELS[level] <= (LEVELS[terminalLevel] ?? LEVELS.silly);
}

function wrap(stream: Stream, file: string): void {
  const existing = stream[STATE];
  if (existing) {
    // A stream shared by the test files of a process (process.stdout): later lines go to the newest file.
    existing.file = file;
    return;
  }
  const state: { file?: string } = { file };
  stream[STATE] = state;
  const original = stream.write;
  stream.write = function write(
    this: unknown,
    chunk: unknown,
    encoding?: unknown,
    callback?: unknown,
  ): boolean {
    const text =
      typeof chunk === 'string'
        ? chunk
        : chunk instanceof Uint8Array
          ? Buffer.from(chunk).toString('utf8')
          : '';
    const level = logLevelOf(text);
    if (level === undefined) return original.call(this, chunk, encoding, callback);
    if (state.file) {
      try {
        appendFileSync(state.file, text.endsWith('\n') ? text : `${text}\n`);
      } catch {
        // The run directory is gone (the run is over): the terminal still gets what it would have had.
      }
    }
    if (shownOnTerminal(level)) return original.call(this, chunk, encoding, callback);
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') process.nextTick(done);
    return true;
  };
}

/** Wraps the streams of this test file's console; a no-op without BM_TEST_LOG_DIR. */
export function installLogCapture(): void {
  const file = logFileOfThisTest();
  if (!file) return;
  const c = console as unknown as { _stdout?: Stream; _stderr?: Stream };
  for (const stream of new Set([c._stdout, c._stderr])) {
    if (stream && typeof stream.write === 'function') wrap(stream, file);
  }
}

installLogCapture();
