// The log scan of a test run: every secret the tests registered, looked for in every log file the run wrote.
// Plain CommonJS so that test/global-teardown.js (outside jest's transform) can require it.
const fs = require('node:fs');
const path = require('node:path');

/** Secrets shorter than this are ignored: they would match ordinary text. */
const MIN_SECRET_LENGTH = 8;
const SECRETS_FILE = 'secrets.jsonl';

/** The registered secrets of a run directory (secrets.jsonl), one per value, long enough to be told apart. */
function readSecrets(dir) {
  const file = path.join(dir, SECRETS_FILE);
  if (!fs.existsSync(file)) return [];
  const entries = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      const entry = JSON.parse(line);
      if (entry && typeof entry.value === 'string')
        entries.push({ name: String(entry.name), value: entry.value });
    } catch {
      // A line torn by a process killed while writing it: the others still count.
    }
  }
  return distinctSecrets(entries);
}

/** One entry per value (the first name given to it), without the values shorter than MIN_SECRET_LENGTH. */
function distinctSecrets(entries) {
  const byValue = new Map();
  for (const { name, value } of entries) {
    if (value.length >= MIN_SECRET_LENGTH && !byValue.has(value)) byValue.set(value, { name, value });
  }
  return [...byValue.values()];
}

/** Every *.log file under dir, nested folders included, sorted. */
function listLogFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  const files = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...listLogFiles(full));
    else if (entry.isFile() && entry.name.endsWith('.log')) files.push(full);
  }
  return files.sort();
}

/** The forms a value takes in a log line: as is and, when it differs, escaped inside a JSON string. */
function formsOf(value) {
  const escaped = JSON.stringify(value).slice(1, -1);
  return escaped === value ? [value] : [value, escaped];
}

/**
 * The secrets that occur in text, each with how often and the first line it is on. One pass over the text
 * whatever the number of secrets: every position is looked up by its first MIN_SECRET_LENGTH characters.
 */
function findSecrets(text, secrets) {
  const byPrefix = new Map();
  for (const secret of secrets) {
    for (const form of formsOf(secret.value)) {
      if (form.length < MIN_SECRET_LENGTH) continue;
      const prefix = form.slice(0, MIN_SECRET_LENGTH);
      const list = byPrefix.get(prefix) ?? [];
      list.push({ secret, form });
      byPrefix.set(prefix, list);
    }
  }
  const found = new Map();
  if (byPrefix.size === 0) return [];
  for (let i = 0; i + MIN_SECRET_LENGTH <= text.length; i += 1) {
    const candidates = byPrefix.get(text.slice(i, i + MIN_SECRET_LENGTH));
    if (!candidates) continue;
    for (const { secret, form } of candidates) {
      if (!text.startsWith(form, i)) continue;
      const hit = found.get(secret.value);
      if (hit) hit.count += 1;
      else found.set(secret.value, { name: secret.name, count: 1, line: lineAt(text, i) });
    }
  }
  return [...found.values()];
}

function lineAt(text, index) {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

/**
 * Scans every log file of a run directory for every registered secret.
 * Returns { files, secrets, findings: [{ file, name, count, line }] } with file relative to dir.
 */
function scanLogDir(dir, secrets = readSecrets(dir)) {
  const files = listLogFiles(dir);
  const findings = [];
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    for (const hit of findSecrets(text, secrets)) findings.push({ file: path.relative(dir, file), ...hit });
  }
  return { files: files.length, secrets: secrets.length, findings };
}

/** The lines printed for a scan: a summary, then one line per secret found. */
function describeScan(result) {
  return [
    `log scan: ${result.files} files, ${result.secrets} secrets, ${result.findings.length} found`,
    ...result.findings.map(
      (f) =>
        `  secret "${f.name}" is in ${f.file} (line ${f.line}, ${f.count} time${f.count === 1 ? '' : 's'})`,
    ),
  ];
}

module.exports = {
  MIN_SECRET_LENGTH,
  SECRETS_FILE,
  readSecrets,
  distinctSecrets,
  listLogFiles,
  findSecrets,
  scanLogDir,
  describeScan,
};
