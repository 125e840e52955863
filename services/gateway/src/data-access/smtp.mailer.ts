import nodemailer, { type Transporter } from 'nodemailer';
import type { Mailer, OutgoingMail } from '../domain/ports/mailer.port';

/** Short timeouts: a mail server that does not answer must not hold mails, or the shutdown, for minutes. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** Mail over SMTP with nodemailer (`smtp://` or `smtps://host:port`, credentials in the URL if any). */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    const url = new URL(smtpUrl);
    this.transport = nodemailer.createTransport({
      host: url.hostname,
      port: url.port === '' ? undefined : Number(url.port),
      secure: url.protocol === 'smtps:',
      auth:
        url.username === ''
          ? undefined
          : { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) },
      ...TIMEOUTS,
    });
  }

  async send(mail: OutgoingMail): Promise<void> {
    const sending = this.transport.sendMail({ from: this.from, ...mail });
    this.inFlight.add(sending);
    try {
      await sending;
    } finally {
      this.inFlight.delete(sending);
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
    this.transport.close();
  }
}
