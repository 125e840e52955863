import type { DashboardInviteDto } from '@bm/contracts';
import { sendQuietly, type MailDeps } from './mail-deps';

/**
 * Mails an invite's link to the invitee, when the gateway has a mailer. It never fails: a mail that cannot be
 * sent is logged (without the link) and the invite stands, its link still in the inviter's answer.
 */
export async function mailInvite(
  deps: MailDeps,
  invite: Pick<DashboardInviteDto, 'user_id' | 'email' | 'invite_url' | 'invite_expires_at'>,
): Promise<void> {
  const expires = new Date(invite.invite_expires_at).toUTCString();
  await sendQuietly(
    deps,
    {
      to: invite.email,
      subject: 'You are invited to the Business Messaging dashboard',
      text: [
        `You have been invited to the Business Messaging dashboard as ${invite.email}.`,
        '',
        'Choose your password here (the link works once, until ' + expires + '):',
        invite.invite_url,
        '',
        'If you did not expect this invitation, ignore this mail.',
      ].join('\n'),
    },
    { kind: 'invite', userId: invite.user_id },
  );
}
