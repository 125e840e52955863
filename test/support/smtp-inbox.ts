import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One mail as the test's SMTP server received it: the envelope, and the DATA read by hand. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  /** The text body, its transfer encoding undone. */
  text: string;
  raw: string;
}

export interface SmtpInbox {
  /** `smtp://127.0.0.1:<port>`, for the gateway's SMTP_URL. */
  url: string;
  mails: ReceivedMail[];
  /** The first mail to `to` (matching `subject` if given) received so far or within the deadline. */
  waitForMail(to: string, subject?: RegExp, timeoutMs?: number): Promise<ReceivedMail>;
  /** The mails to `to` (matching `subject` if given) once there are at least `count`, oldest first. */
  waitForMails(to: string, count: number, subject?: RegExp, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function decodeHeaderWord(value: string): string {
  return value.replace(/=\?utf-8\?([BQ])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}

/** Reads a single-part text mail (what the gateway sends): its headers, and its body decoded. */
export function parseMail(raw: string): { headers: Map<string, string>; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  const body = raw.slice(split + 4);
  const encoding = headers.get('content-transfer-encoding')?.toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body, 'base64').toString('utf8')
        : body;
  return { headers, text };
}

/** The first https?:// link of a text that contains `path`. */
export function linkIn(text: string, path: string): string {
  const link = text.match(/https?:\/\/\S+/g)?.find((l) => l.includes(path));
  if (!link) throw new Error(`no link to ${path} in the mail:\n${text}`);
  return link;
}

/** An SMTP server on a free local port, keeping every mail it is given (no TLS, no authentication). */
export async function startSmtpInbox(): Promise<SmtpInbox> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // A mailbox named refused@… is one the server will not take: how a test sees a mail fail.
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('refused')) callback(new Error('550 no such mailbox'));
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const { headers, text } = parseMail(raw);
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: decodeHeaderWord(headers.get('subject') ?? ''),
          text,
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const find = (to: string, subject?: RegExp) =>
    mails.find((m) => m.to.includes(to) && (subject === undefined || subject.test(m.subject)));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitForMail(to, subject, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = find(to, subject);
        if (mail) return mail;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async waitForMails(to, count, subject, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = mails.filter(
          (m) => m.to.includes(to) && (subject === undefined || subject.test(m.subject)),
        );
        if (found.length >= count) return found;
        if (Date.now() > deadline) throw new Error(`${found.length} of ${count} mails to ${to} arrived`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
