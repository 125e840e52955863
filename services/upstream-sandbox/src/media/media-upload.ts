import type { Request } from 'express';
import busboy from 'busboy';
import { GraphError } from '../graph-errors';

const MB = 1024 * 1024;

/** The upstream's size limit of a media type (`image/png` -> image: 5 MB); any other type is a document. */
function limitOf(mimeType: string): number {
  const kind = mimeType.split('/')[0];
  if (kind === 'image') return 5 * MB;
  if (kind === 'video' || kind === 'audio') return 16 * MB;
  return 100 * MB;
}

/**
 * Reads `POST /{phone_number_id}/media`'s multipart body: `messaging_product=whatsapp`, `type` (the file's MIME
 * type) and `file`; 131008 for a missing part, 131009 for a wrong value or a file above its type's limit.
 */
export function readMediaUpload(req: Request): Promise<{ bytes: Buffer; mime_type: string }> {
  if (!req.is('multipart/form-data')) throw GraphError.of(131009, 'The body must be multipart/form-data');
  const parser = busboy({ headers: req.headers, limits: { files: 1, fileSize: 100 * MB + 1 } });
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    let file: { chunks: Buffer[]; size: number; mimeType: string; done: Promise<void> } | undefined;
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (_name, stream, info) => {
      const chunks: Buffer[] = [];
      const current = { chunks, size: 0, mimeType: info.mimeType, done: Promise.resolve() };
      current.done = new Promise((done) => {
        stream.on('data', (chunk: Buffer) => {
          current.size += chunk.length;
          if (current.size <= 100 * MB) chunks.push(chunk);
        });
        stream.on('end', done);
      });
      file = current;
    });
    parser.on('error', reject);
    parser.on('close', () => {
      void (async () => {
        await file?.done;
        if (fields.messaging_product !== 'whatsapp')
          return reject(GraphError.of(131009, 'messaging_product must be whatsapp'));
        if (fields.type === undefined) return reject(GraphError.of(131008, 'The type parameter is missing'));
        if (file === undefined) return reject(GraphError.of(131008, 'The file parameter is missing'));
        const limit = limitOf(fields.type);
        if (file.size > limit)
          return reject(GraphError.of(131009, `A ${fields.type} file may be at most ${limit} bytes`));
        resolve({ bytes: Buffer.concat(file.chunks), mime_type: fields.type });
      })();
    });
    req.pipe(parser);
  });
}
