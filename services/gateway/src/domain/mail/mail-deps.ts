import type { Logger } from '@bm/platform';
import type { Mailer } from '../ports/mailer.port';

/** What mailing needs: the mailer (none when SMTP_URL is unset) and where to log a mail that failed. */
export interface MailDeps {
  mailer: Mailer | undefined;
  logger: Logger;
}

/**
 * Sends the mail, and never fails: a mail server that refuses or does not answer is logged (without the mail's
 * text, which holds a link's token) and the request that asked for the mail goes on.
 */
export async function sendQuietly(
  deps: MailDeps,
  mail: { to: string; subject: string; text: string },
  what: { kind: string; userId: string },
): Promise<void> {
  if (!deps.mailer) return;
  try {
    await deps.mailer.send(mail);
    deps.logger.info('mail sent', { kind: what.kind, user_id: what.userId });
  } catch (err) {
    deps.logger.warn('mail not sent', {
      kind: what.kind,
      user_id: what.userId,
      error: err instanceof Error ? err.message : String(err),
    });
  }
}
