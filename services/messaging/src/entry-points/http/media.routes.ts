import { pipeline } from 'node:stream/promises';
import type { Router } from 'express';
import { mediaQuerySchema, mediaUploadFieldsSchema, ok } from '@bm/contracts';
import { AppError, defineRoutes, tenantOf, validate } from '@bm/platform';
import { downloadMedia } from '../../domain/media/download-media.use-case';
import { uploadMedia } from '../../domain/media/upload-media.use-case';
import type { MessagingDeps } from '../../domain/messaging-deps';
import { readUpload } from './multipart-upload';

/** The upload's path: its body is read here, as it streams, not as JSON (see `rawBodyPaths`). */
export const MEDIA_UPLOAD_PATH = '/api/v1/media';

/** The inbox's media: inbound items streamed from the upstream, files uploaded to it. */
export function mediaRoutes(router: Router, deps: MessagingDeps): void {
  defineRoutes(router, [
    {
      method: 'POST',
      path: MEDIA_UPLOAD_PATH,
      handlers: [
        async (req, res) => {
          const { fields, file } = await readUpload(req);
          try {
            const { channel_account_id } = validate(mediaUploadFieldsSchema, fields);
            if (file === undefined)
              throw new AppError('VALIDATION_ERROR', 'The request is invalid', {
                errors: [{ field: 'file', message: '"file" is required' }],
              });
            res.status(201).json(ok(await uploadMedia(deps, tenantOf(res), channel_account_id, file)));
          } finally {
            // Whatever of the file was not read (an early refusal) is drained, so the request can end.
            file?.body.resume();
          }
        },
      ],
    },
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
