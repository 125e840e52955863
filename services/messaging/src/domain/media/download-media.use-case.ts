import { AppError } from '@bm/platform';
import { findTenantAccount } from '../accounts/find-tenant-account';
import type { MessagingDeps } from '../messaging-deps';
import type { MediaStream } from '../ports/upstream.port';

/** The largest file the upstream takes (a document), and so the largest one passed through. */
export const MEDIA_MAX_BYTES = 100 * 1024 * 1024;

// Media ids are the upstream's object ids; anything else is no item it could have.
const MEDIA_ID = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * GET /api/v1/media/{id}: an inbound media item's bytes, read from the upstream with the token of one of the
 * tenant's own numbers (another tenant's, or an unknown one, is 404 CHANNEL_ACCOUNT_NOT_FOUND); 404 MEDIA_EXPIRED
 * once the upstream no longer has it.
 */
export async function downloadMedia(
  deps: Pick<MessagingDeps, 'accounts' | 'secrets' | 'upstream' | 'logger'>,
  tenantId: number,
  channelAccountId: string,
  mediaId: string,
): Promise<MediaStream> {
  const account = await findTenantAccount(deps, tenantId, channelAccountId);
  if (!MEDIA_ID.test(mediaId)) throw new AppError('MEDIA_EXPIRED');
  const answer = await deps.upstream.openMedia(
    mediaId,
    deps.secrets.open(account.accessTokenSealed),
    MEDIA_MAX_BYTES,
  );
  if (answer.ok) return answer.media;
  if (answer.expired) throw new AppError('MEDIA_EXPIRED');
  deps.logger.warn('media download refused', { media_id: mediaId, error: answer.message });
  throw new AppError('UPSTREAM_ERROR', `The upstream network's media could not be read: ${answer.message}`);
}
