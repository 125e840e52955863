import type { Test } from 'supertest';

/**
 * Reads an RFC 4180 CSV text (quoted cells with doubled quotes and line breaks, CRLF records) into its records,
 * independently of the product's writer, so a test checks the bytes a spreadsheet would read.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      record.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  if (cell !== '' || record.length > 0) throw new Error('the CSV does not end with CRLF');
  return records;
}

/** The records of a CSV as objects keyed by its header line. */
export function csvObjects(text: string): Array<Record<string, string>> {
  const [header, ...rows] = parseCsv(text);
  return rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i]])));
}

/** supertest's parser for a text body of a type it does not parse itself (text/csv): `.parse(textBody)`. */
export const textBody: Parameters<Test['parse']>[0] = (res, done) => {
  const stream = res as unknown as NodeJS.ReadableStream;
  let text = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    text += chunk;
  });
  stream.on('end', () => done(null, text));
};
