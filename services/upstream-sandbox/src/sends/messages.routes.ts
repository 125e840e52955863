import type { Router } from 'express';
import type { SandboxDeps } from '../deps';
import { accessToken, requireToken } from '../graph-auth';
import { readMediaUpload } from '../media/media-upload';
import { storeMedia } from '../media/media.routes';
import { sendMessage } from './send-message';
import { takeReadReceipt } from './read-receipt';

/** `POST /{version}/{phone_number_id}/messages` and the media upload beside it. */
export function messagesRoutes(router: Router, deps: SandboxDeps): void {
  router.post('/:phoneNumberId/messages', async (req, res) => {
    const body = req.body as Record<string, unknown> | undefined;
    if (body?.status === 'read') {
      takeReadReceipt(deps, req.params.phoneNumberId, body, accessToken(req));
      res.json({ success: true });
      return;
    }
    const answer = await sendMessage(deps, {
      phoneNumberId: req.params.phoneNumberId,
      token: accessToken(req),
      body: req.body as unknown,
      version: (req.params as Record<string, string>).version,
    });
    if (answer.dropAfterMs !== undefined) {
      // Accepted upstream, but the client never learns it: it sees the connection reset.
      if (answer.dropAfterMs > 0) await deps.timers.sleep(answer.dropAfterMs);
      req.socket.destroy();
      return;
    }
    res.status(answer.httpStatus).json(answer.body);
  });

  // The file is kept as a media item: its lookup and download serve it, as the upstream's do.
  router.post('/:phoneNumberId/media', async (req, res) => {
    requireToken(req);
    res.json({ id: storeMedia(deps.state, await readMediaUpload(req)) });
  });
}
