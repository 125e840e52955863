import { randomBytes } from 'node:crypto';
import type { GatewayDeps } from '../gateway-deps';
import { sendQuietly, type MailDeps } from '../mail/mail-deps';
import { hashInviteToken } from './invite-token';

/** How long a password reset link stays valid. */
export const RESET_TTL_MS = 60 * 60 * 1000;

/**
 * Mails a single-use reset link, valid 1 h, to the user of that email, if there is one; a new link voids the
 * user's older ones. Run after the request was answered (the answer is the same whether or not the address
 * belongs to anyone, and takes as long), so it never fails: a failure is logged without the link.
 * `dashboardUrl` undefined: no origin to trust for the link (no PUBLIC_URL), nothing is sent.
 */
export async function requestPasswordReset(
  deps: Pick<GatewayDeps, 'users' | 'resets'> & MailDeps,
  input: { email: string; dashboardUrl: string | undefined },
  now = new Date(),
): Promise<void> {
  try {
    if (!deps.mailer) return;
    const user = await deps.users.findByEmail(input.email);
    if (!user) return;
    if (input.dashboardUrl === undefined) {
      deps.logger.warn('password reset not mailed: set PUBLIC_URL for the links', { user_id: user.id });
      return;
    }
    const token = randomBytes(32).toString('base64url');
    await deps.resets.replace(user.id, hashInviteToken(token), new Date(now.getTime() + RESET_TTL_MS));
    await sendQuietly(
      deps,
      {
        to: user.email,
        subject: 'Reset your Business Messaging password',
        text: [
          `Someone asked to reset the password of ${user.email} on the Business Messaging dashboard.`,
          '',
          'Choose a new password here (the link works once, within an hour):',
          // In the fragment: browsers send it to no server, so the token stays out of access logs and Referer.
          `${input.dashboardUrl}/reset-password#token=${token}`,
          '',
          'If it was not you, ignore this mail: your password stays as it is.',
        ].join('\n'),
      },
      { kind: 'password-reset', userId: user.id },
    );
  } catch (err) {
    deps.logger.error('password reset not mailed', {
      error: err instanceof Error ? err.message : String(err),
    });
  }
}
