import { randomBytes } from 'node:crypto';
import type { Agent as HttpAgent } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { pipeline, Readable } from 'node:stream';
import type { MediaUpload } from '../../domain/ports/upstream.port';
import { post, type Endpoint, type JsonAnswer } from './post-json';

// Quotes, line breaks and non-ASCII would break the part's header: they become `_`.
const headerSafe = (value: string): string => value.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '_');

/** The multipart body the upstream's media upload takes: `messaging_product`, `type`, then the file. */
function multipartBody(boundary: string, upload: MediaUpload): Readable {
  const field = (name: string, value: string) =>
    `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head =
    field('messaging_product', 'whatsapp') +
    field('type', upload.mimeType) +
    `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${headerSafe(upload.filename)}"\r\n` +
    `content-type: ${headerSafe(upload.mimeType)}\r\n\r\n`;
  async function* parts(): AsyncGenerator<Buffer> {
    yield Buffer.from(head);
    for await (const chunk of upload.body) yield chunk as Buffer;
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  return Readable.from(parts(), { objectMode: false });
}

/**
 * POSTs a file to the upstream as multipart, streaming it as it comes (chunked, no length known before the end),
 * and reads the JSON answer. A failure of the file's stream (too large, the client gone) aborts the request.
 */
export function postMultipart<T>(
  endpoint: Endpoint,
  path: string,
  upload: MediaUpload,
  headers: Record<string, string>,
  options: { agent: HttpAgent | HttpsAgent; timeoutMs: number },
): Promise<JsonAnswer<T>> {
  const boundary = `bm-${randomBytes(16).toString('hex')}`;
  return post<T>(
    endpoint,
    path,
    { 'content-type': `multipart/form-data; boundary=${boundary}`, ...headers },
    options,
    (req, fail) =>
      pipeline(multipartBody(boundary, upload), req, (err) => {
        if (err) fail(err);
      }),
  );
}
