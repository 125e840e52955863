import { createHash } from 'node:crypto';
import type { Request, Router } from 'express';
import type { SandboxDeps } from '../deps';
import { requireToken } from '../graph-auth';
import { GraphError } from '../graph-errors';
import { newNumericId } from '../ids';
import type { MediaItem, SandboxState } from '../state';

/** Where the media bytes are served, beside the versioned Graph paths (the real upstream uses another host). */
export const MEDIA_DOWNLOAD_PATH = '/lookaside';

// The oldest items go past this many: long runs keep memory flat, as the upstream drops media after a while.
const MAX_MEDIA_ITEMS = 1000;

/** Keeps a media item the upstream can serve; answers its id. */
export function storeMedia(
  state: SandboxState,
  input: { bytes: Buffer; mime_type: string; redirect?: MediaItem['redirect'] },
): string {
  const id = newNumericId();
  const sha256 = createHash('sha256').update(input.bytes).digest('hex');
  state.media.set(id, { ...input, sha256 });
  if (state.media.size > MAX_MEDIA_ITEMS) state.media.delete(state.media.keys().next().value as string);
  return id;
}

const downloadUrl = (req: Request, id: string): string =>
  `${req.protocol}://${req.get('host')}${MEDIA_DOWNLOAD_PATH}/${encodeURIComponent(id)}`;

/**
 * `GET /{version}/{media_id}`: the media item's download address, type, hash and size. Ids that are no media
 * item go on to the phone number's profile, which shares the path.
 */
export function mediaLookupRoutes(router: Router, deps: SandboxDeps): void {
  router.get('/:mediaId', (req, res, next) => {
    const item = deps.state.media.get(req.params.mediaId);
    if (item === undefined) {
      next();
      return;
    }
    requireToken(req);
    if (item.redirect === 'lookup') {
      res.redirect(302, downloadUrl(req, req.params.mediaId));
      return;
    }
    res.json({
      messaging_product: 'whatsapp',
      url: downloadUrl(req, req.params.mediaId),
      mime_type: item.mime_type,
      sha256: item.sha256,
      file_size: item.bytes.length,
      id: req.params.mediaId,
    });
  });
}

/** `GET /lookaside/{media_id}`: the bytes, with the same bearer token; 404 once the item is gone. */
export function mediaDownloadRoutes(router: Router, deps: SandboxDeps): void {
  router.get('/:mediaId', (req, res) => {
    requireToken(req);
    const item = deps.state.media.get(req.params.mediaId);
    if (item === undefined) throw GraphError.of(100, 'Object with ID does not exist', 404);
    if (item.redirect === 'download') {
      res.redirect(302, `${downloadUrl(req, req.params.mediaId)}?again=1`);
      return;
    }
    res.type(item.mime_type).setHeader('content-length', String(item.bytes.length));
    res.end(item.bytes);
  });
}

/** `DELETE /_sandbox/media/{media_id}`: the upstream no longer has the item (it expired). */
export function mediaControlRoutes(router: Router, deps: SandboxDeps): void {
  router.delete('/media/:mediaId', (req, res) => {
    res.json({ deleted: deps.state.media.delete(req.params.mediaId) });
  });
}
