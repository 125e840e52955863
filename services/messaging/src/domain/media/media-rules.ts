import { Transform, type TransformCallback } from 'node:stream';

/** The kinds of file the upstream takes as media, and the largest of each (UPSTREAM-REFERENCE.md). */
export type UploadType = 'image' | 'video' | 'audio' | 'document';

const MB = 1024 * 1024;

export const UPLOAD_LIMITS: Record<UploadType, number> = {
  image: 5 * MB,
  video: 16 * MB,
  audio: 16 * MB,
  document: 100 * MB,
};

/** A file's kind by its content type: anything not an image, a video or audio goes as a document. */
export function uploadTypeOf(mimeType: string): UploadType {
  const kind = mimeType.split('/')[0].toLowerCase();
  return kind === 'image' || kind === 'video' || kind === 'audio' ? kind : 'document';
}

/** Passes bytes on until there are more than `maxBytes`, then fails with `exceeded` set. */
export class SizeLimit extends Transform {
  exceeded = false;
  private seen = 0;

  constructor(readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen <= this.maxBytes) {
      done(null, chunk);
      return;
    }
    this.exceeded = true;
    done(new Error(`the file is larger than ${this.maxBytes} bytes`));
  }
}
