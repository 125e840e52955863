import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One mail the catcher kept. */
interface CaughtMail {
  at: Date;
  to: string[];
  subject: string;
  text: string;
}

export interface MailCatcher {
  /** For the gateway's SMTP_URL. */
  smtpUrl: string;
  /** The inbox page. */
  inboxUrl: string;
  close(): Promise<void>;
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** The subject and text of a single-part text mail (what the gateway sends), its encodings undone. */
function readMail(raw: string): { subject: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const header = (name: string) =>
    head
      .split('\r\n')
      .find((l) => l.toLowerCase().startsWith(`${name}:`))
      ?.slice(name.length + 1)
      .trim() ?? '';
  const body = raw.slice(split + 4);
  const encoding = header('content-transfer-encoding').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body, 'base64').toString('utf8')
        : body;
  const subject = header('subject').replace(
    /=\?utf-8\?([BQ])\?([^?]*)\?=/gi,
    (_, kind: string, word: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(word, 'base64').toString('utf8')
        : decodeQuotedPrintable(word.replace(/_/g, ' ')),
  );
  return { subject, text };
}

/** Plain HTML, newest first; every mail's text escaped, its http(s) links made clickable. */
function inboxPage(mails: CaughtMail[]): string {
  const items = [...mails]
    .reverse()
    .map((m) => {
      const text = escapeHtml(m.text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);
      return `<article><h2>${escapeHtml(m.subject)}</h2><p>To: ${escapeHtml(m.to.join(', '))} · ${m.at.toISOString()}</p><pre>${text}</pre></article>`;
    })
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Local mail</title></head><body>
<h1>Mail sent by the local stack (${mails.length})</h1>
${items || '<p>No mail yet. Invites and password resets show here; reload the page.</p>'}
</body></html>`;
}

/**
 * A local mail catcher for `pnpm start`: an SMTP server on 127.0.0.1 keeping mails in memory (no TLS, no
 * authentication, nothing delivered anywhere), and an inbox page listing them.
 */
export async function startMailCatcher(smtpPort: number, httpPort: number): Promise<MailCatcher> {
  const mails: CaughtMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        // Only the newest 200: a long-running demo does not grow without bound.
        mails.push({
          at: new Date(),
          to: session.envelope.rcptTo.map((r) => r.address),
          ...readMail(Buffer.concat(chunks).toString('utf8')),
        });
        if (mails.length > 200) mails.shift();
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.server.once('error', reject);
    smtp.listen(smtpPort, '127.0.0.1', resolve);
  });
  const http: Server = createServer((_req, res) => {
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'none'",
      'cache-control': 'no-store',
    });
    res.end(inboxPage(mails));
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(httpPort, '127.0.0.1', resolve);
  });
  const smtpAt = (smtp.server.address() as AddressInfo).port;
  const httpAt = (http.address() as AddressInfo).port;
  return {
    smtpUrl: `smtp://127.0.0.1:${smtpAt}`,
    inboxUrl: `http://127.0.0.1:${httpAt}`,
    close: async () => {
      http.closeAllConnections();
      await Promise.all([
        new Promise<void>((resolve) => smtp.close(() => resolve())),
        new Promise<void>((resolve) => http.close(() => resolve())),
      ]);
    },
  };
}
