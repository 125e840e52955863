// Closes every run with one plain line of counts, easy for people and CI to read.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    process.stdout.write(
      `tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests} skipped\n`,
    );
  }
}
module.exports = SummaryReporter;
