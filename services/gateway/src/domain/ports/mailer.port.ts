/** A plain-text mail to one person. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail (SMTP in production); the gateway has none when SMTP_URL is unset. */
export interface Mailer {
  /** Resolves once the mail server accepted the mail; rejects when it did not. */
  send(mail: OutgoingMail): Promise<void>;
  /** Waits for the mails being sent, then closes the connections. */
  close(): Promise<void>;
}
