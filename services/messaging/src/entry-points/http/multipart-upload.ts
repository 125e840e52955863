import type { Request } from 'express';
import busboy from 'busboy';
import { AppError } from '@bm/platform';
import type { IncomingFile } from '../../domain/media/upload-media.use-case';

// Past the largest file the upstream takes (a document, 100 MB): the use case's limit per type answers first.
const MAX_FILE_BYTES = 100 * 1024 * 1024 + 1;

/**
 * The fields of a multipart/form-data request up to its `file` part, and that part as a stream still to be
 * read (no file is held in memory or on disk). Fields after the file are not seen: they must come first.
 */
export function readUpload(req: Request): Promise<{ fields: Record<string, string>; file?: IncomingFile }> {
  if (!req.is('multipart/form-data'))
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be multipart/form-data');
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      limits: { files: 1, fields: 10, fieldSize: 1024, parts: 12, fileSize: MAX_FILE_BYTES },
    });
  } catch (err) {
    throw new AppError('VALIDATION_ERROR', 'The multipart body cannot be read', {
      errors: [{ field: 'body', message: err instanceof Error ? err.message : String(err) }],
    });
  }
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'file') {
        stream.resume();
        return;
      }
      resolve({ fields, file: { filename: info.filename ?? 'file', mimeType: info.mimeType, body: stream } });
    });
    parser.on('close', () => resolve({ fields }));
    parser.on('error', (err: Error) =>
      reject(
        new AppError('VALIDATION_ERROR', 'The multipart body cannot be read', {
          errors: [{ field: 'body', message: err.message }],
        }),
      ),
    );
    req.pipe(parser);
  });
}
