import type { Response } from 'express';

/** A CSV cell's value: null and undefined are empty, dates are written as ISO 8601 (UTC). */
export type CsvValue = string | number | boolean | Date | null | undefined;

// A text a spreadsheet would read as a formula (OWASP's CSV injection list: = + - @, tab and carriage return).
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell (RFC 4180): quoted, with its quotes doubled, when it holds a quote, comma or line break. A text
 * that starts like a formula gets a leading apostrophe, so a spreadsheet shows it instead of evaluating it.
 */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV record with its CRLF. */
export function csvLine(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/**
 * Streams a CSV download: the header line, then each page of rows as the source yields it, written before the next
 * page is read and only once the client has taken the previous one (backpressure), so memory holds one page
 * whatever the export's length. Stops reading when the client goes away. An error after the first bytes reaches
 * the error handler, which closes the connection (the client sees a cut download, never a complete-looking file).
 */
export async function streamCsv(
  res: Response,
  filename: string,
  header: readonly string[],
  pages: AsyncIterable<ReadonlyArray<readonly CsvValue[]>>,
): Promise<void> {
  res.status(200);
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${filename.replace(/["\\\r\n]/g, '_')}"`);
  res.setHeader('Cache-Control', 'no-store');
  let gone = false;
  res.once('close', () => {
    gone = true;
  });
  await write(res, csvLine(header));
  for await (const rows of pages) {
    if (gone) return;
    if (rows.length > 0) await write(res, rows.map(csvLine).join(''));
  }
  res.end();
}

/** Writes a chunk and waits for the socket to drain when its buffer is full (or for the client to leave). */
async function write(res: Response, chunk: string): Promise<void> {
  if (res.write(chunk)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}
