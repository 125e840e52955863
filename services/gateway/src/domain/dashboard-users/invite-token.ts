import { createHash } from 'node:crypto';

/** How long an invite link stays valid. */
export const INVITE_TTL_MS = 24 * 60 * 60 * 1000;

/** The SHA-256 under which an invite token is stored and looked up. */
export function hashInviteToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}
