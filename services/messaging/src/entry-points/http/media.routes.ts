import { pipeline } from 'node:stream/promises';
import type { Router } from 'express';
import { mediaQuerySchema } from '@bm/contracts';
import { defineRoutes, tenantOf, validate } from '@bm/platform';
import { downloadMedia } from '../../domain/media/download-media.use-case';
import type { MessagingDeps } from '../../domain/messaging-deps';

/** The inbox's media: inbound items streamed from the upstream. */
export function mediaRoutes(router: Router, deps: MessagingDeps): void {
  defineRoutes(router, [
    {
      method: 'GET',
      path: '/api/v1/media/:id',
      handlers: [
        async (req, res) => {
          const query = validate(mediaQuerySchema, req.query, { prefix: 'query' });
          const media = await downloadMedia(
            deps,
            tenantOf(res),
            query.channel_account_id,
            String(req.params.id),
          );
          res.status(200).type(media.contentType);
          if (media.contentLength !== undefined) res.setHeader('content-length', media.contentLength);
          // A customer's file: never rendered as a page of ours (an <img> still shows it).
          res.setHeader('content-disposition', 'attachment');
          // Streamed through: a failure midway cuts the answer short, as the headers are gone.
          await pipeline(media.body, res).catch((err: unknown) =>
            deps.logger.warn('media stream cut short', { media_id: req.params.id, err: String(err) }),
          );
        },
      ],
    },
  ]);
}
