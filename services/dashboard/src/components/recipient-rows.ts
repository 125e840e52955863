import Papa from 'papaparse';

/** A row of the uploaded or pasted list: its line, its cells by column name, and why it is left out, if it is. */
export interface SheetRow {
  line: number;
  cells: Record<string, string>;
  phone: string;
  name: string;
  problem: string | null;
}

export interface Sheet {
  columns: string[];
  rows: SheetRow[];
}

const PHONE_COLUMNS = ['phone', 'phone_number', 'mobile', 'number', 'to'];
const NAME_COLUMNS = ['name', 'full_name', 'customer', 'customer_name'];

/**
 * Digits of a phone as the API would read them (spaces, dashes, dots, brackets and a leading + dropped), or
 * null when it cannot be a phone with a country code (8 to 15 digits, E.164). The server checks each number
 * fully and fails a recipient it rejects; this catches the plainly broken rows before anything is sent.
 */
export function phoneDigits(input: string): string | null {
  const trimmed = input.trim();
  if (!/^\+?[\d\s\-().]+$/.test(trimmed)) return null;
  const digits = trimmed.replace(/\D/g, '');
  return digits.length >= 8 && digits.length <= 15 && !digits.startsWith('0') ? digits : null;
}

/**
 * Parses CSV text (a file or pasted rows, with a header line) in the browser with Papa Parse. Each row is checked:
 * a phone that cannot be one, a duplicate of an earlier row, a column count that does not match the header.
 */
export function parseSheet(text: string): Sheet {
  const parsed = Papa.parse<string[]>(text.trim(), { skipEmptyLines: 'greedy' });
  const [header = [], ...body] = parsed.data;
  const columns = header.map((h) => h.trim());
  const lower = columns.map((c) => c.toLowerCase());
  const phoneAt = lower.findIndex((c) => PHONE_COLUMNS.includes(c));
  const nameAt = lower.findIndex((c) => NAME_COLUMNS.includes(c));
  const seen = new Set<string>();
  const rows = body.map((cells, i): SheetRow => {
    const line = i + 2;
    const byName = Object.fromEntries(columns.map((c, j) => [c, (cells[j] ?? '').trim()]));
    const phone = phoneAt >= 0 ? (cells[phoneAt] ?? '').trim() : '';
    const name = nameAt >= 0 ? (cells[nameAt] ?? '').trim() : '';
    const digits = phoneDigits(phone);
    let problem: string | null = null;
    if (phoneAt < 0) problem = 'no phone column (name one "phone")';
    else if (cells.length !== columns.length)
      problem = `${cells.length} cells, the header has ${columns.length}`;
    else if (phone === '') problem = 'no phone';
    else if (digits === null) problem = `"${phone}" is not a phone number with a country code`;
    else if (seen.has(digits)) problem = 'the same phone as an earlier row';
    if (digits !== null && problem === null) seen.add(digits);
    return { line, cells: byName, phone, name, problem };
  });
  return { columns, rows };
}
