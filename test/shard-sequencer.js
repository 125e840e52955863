// Splits the suite into shards of about equal time, so that `npm test`'s shards, run side by side, end together.
// The weights are the seconds each file took when last measured (test/durations.json, written by
// `TEST_DURATIONS_FILE=test/durations.json npm test`); a file not listed counts DEFAULT_SECONDS. Every shard's
// process computes the same split from the same list. Within a shard, the slowest files run first. The files of
// test/alone.json go to no shard: the front door runs them by themselves once the shards are done.
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const DEFAULT_SECONDS = 2;

function measured() {
  try {
    return JSON.parse(fs.readFileSync(path.join(__dirname, 'durations.json'), 'utf8'));
  } catch {
    return {};
  }
}

/** The files no shard takes: they run by themselves after the shards (test/alone.json says why). */
const ALONE = new Set(JSON.parse(fs.readFileSync(path.join(__dirname, 'alone.json'), 'utf8')).files);

class ShardSequencer {
  constructor() {
    this.seconds = measured();
  }

  weight(test) {
    return this.seconds[this.relative(test)] ?? DEFAULT_SECONDS;
  }

  /** Slowest first, then by path: the same order in every process. */
  ordered(tests) {
    return [...tests].sort(
      (a, b) => this.weight(b) - this.weight(a) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
    );
  }

  relative(test) {
    return path.relative(ROOT, test.path).split(path.sep).join('/');
  }

  /** Longest first, each file to the shard with the least time so far; none of the files run alone. */
  shard(tests, { shardIndex, shardCount }) {
    const load = new Array(shardCount).fill(0);
    const mine = [];
    for (const test of this.ordered(tests.filter((t) => !ALONE.has(this.relative(t))))) {
      const lightest = load.indexOf(Math.min(...load));
      load[lightest] += this.weight(test);
      if (lightest === shardIndex - 1) mine.push(test);
    }
    return mine;
  }

  sort(tests) {
    return this.ordered(tests);
  }

  allFailedTests(tests) {
    return tests;
  }

  cacheResults() {}
}

module.exports = ShardSequencer;
