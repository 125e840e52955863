// Closes every run with one plain line of counts, easy for people and CI to read. With TEST_DURATIONS_FILE set, it
// also writes the seconds each file took there (merged into what the file holds), the weights of
// test/shard-sequencer.js.
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');

function recordDurations(file, results) {
  let kept = {};
  try {
    kept = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    // A new file.
  }
  for (const r of results.testResults) {
    const seconds = (r.perfStats.end - r.perfStats.start) / 1000;
    if (seconds > 0)
      kept[path.relative(ROOT, r.testFilePath).split(path.sep).join('/')] = Math.round(seconds * 10) / 10;
  }
  const sorted = Object.entries(kept).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
  fs.writeFileSync(file, `${JSON.stringify(Object.fromEntries(sorted), null, 2)}\n`);
}

class SummaryReporter {
  onRunComplete(_contexts, results) {
    if (process.env.TEST_DURATIONS_FILE) recordDurations(process.env.TEST_DURATIONS_FILE, results);
    process.stdout.write(
      `tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests} skipped\n`,
    );
  }
}
module.exports = SummaryReporter;
