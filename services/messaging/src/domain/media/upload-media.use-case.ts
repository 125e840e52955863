import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import type { MediaUploaded } from '@bm/contracts';
import { AppError } from '@bm/platform';
import { findTenantAccount } from '../accounts/find-tenant-account';
import type { MessagingDeps } from '../messaging-deps';
import { SizeLimit, UPLOAD_LIMITS, uploadTypeOf } from './media-rules';

export interface IncomingFile {
  filename: string;
  mimeType: string;
  body: Readable;
}

/**
 * POST /api/v1/media: a file uploaded to the upstream for one of the tenant's own numbers (another tenant's, or
 * an unknown one, is 404 CHANNEL_ACCOUNT_NOT_FOUND), streamed as it comes; above its kind's limit (image 5 MB,
 * video and audio 16 MB, document 100 MB) it is cut off and answered 413 PAYLOAD_TOO_LARGE.
 */
export async function uploadMedia(
  deps: Pick<MessagingDeps, 'accounts' | 'secrets' | 'upstream' | 'logger'>,
  tenantId: number,
  channelAccountId: string,
  file: IncomingFile,
): Promise<MediaUploaded> {
  const account = await findTenantAccount(deps, tenantId, channelAccountId);
  const type = uploadTypeOf(file.mimeType);
  const limit = new SizeLimit(UPLOAD_LIMITS[type]);
  const body = pipeline(file.body, limit, () => undefined);
  const answer = await deps.upstream.uploadMedia(
    account.phoneNumberId,
    deps.secrets.open(account.accessTokenSealed),
    { filename: file.filename, mimeType: file.mimeType, type, body },
  );
  if (limit.exceeded)
    throw new AppError('PAYLOAD_TOO_LARGE', `A file of type ${type} may be at most ${limit.maxBytes} bytes`, {
      type,
      limit_bytes: limit.maxBytes,
    });
  if (!answer.ok) {
    deps.logger.warn('media upload refused', { channel_account_id: account.id, error: answer.message });
    throw new AppError('UPSTREAM_ERROR', `The upstream network refused the file: ${answer.message}`);
  }
  return { media_id: answer.id };
}
