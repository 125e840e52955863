import type { Readable } from 'node:stream';
import type { UploadType } from '../media/media-rules';
import type { MessageLog } from './message-log.port';

/** A template as the upstream lists it. */
export interface UpstreamTemplate {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string;
  components: Array<Record<string, unknown>>;
  quality_score?: { score?: string };
}

/** What came of handing a message to the upstream. */
export type SendResult = SendAccepted | UpstreamFailure | UnknownOutcome;

/** The upstream took the message; `held` when it holds it for quality assessment before it goes out (pacing). */
export interface SendAccepted {
  ok: true;
  providerMessageId: string;
  held: boolean;
}

/** How a failed upstream call ends: retried later, or the message fails now. */
export interface UpstreamFailure {
  ok: false;
  unknown?: false;
  code: number | null;
  message: string;
  httpStatus: number | null;
  retryable: boolean;
}

/**
 * The request was written but no answer came (a timeout, or the connection broke): the upstream may have taken
 * the message, so it is neither failed nor sent again now; a status report naming its attempt settles it.
 */
export interface UnknownOutcome {
  ok: false;
  unknown: true;
  message: string;
}

/** The upstream answered a setup call (templates, subscription) with an error; `status` is its HTTP status. */
export class UpstreamRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'UpstreamRefusal';
  }
}

/** A template as submitted for review; the upstream client writes the wire body. */
export interface TemplateSubmission {
  name: string;
  language: string;
  category: string;
  components: Array<Record<string, unknown>>;
}

/** The upstream network's Cloud API as the domain uses it; no method throws for a refused send. */
export interface UpstreamSender {
  /** Hands one message to the upstream; `callbackData` comes back in each of its status reports. */
  sendMessageLog(
    phoneNumberId: string,
    accessToken: string,
    message: MessageLog,
    callbackData: string,
  ): Promise<SendResult>;
}

/** The WABA's templates and webhook subscription; the setup calls throw `UpstreamRefusal` when refused. */
export interface UpstreamAccountApi {
  listTemplates(wabaId: string, accessToken: string): Promise<UpstreamTemplate[]>;
  createTemplate(
    wabaId: string,
    accessToken: string,
    template: TemplateSubmission,
  ): Promise<{ ok: true; id: string; status: string; category: string } | UpstreamFailure>;
  subscribeApp(wabaId: string, accessToken: string): Promise<void>;
  /** The read receipt of a customer's message (blue ticks on their side). */
  markRead(
    phoneNumberId: string,
    accessToken: string,
    providerMessageId: string,
  ): Promise<{ ok: true } | UpstreamFailure>;
}

/** A media item's bytes as the upstream streams them: read them once, through to the client. */
export interface MediaStream {
  contentType: string;
  /** The length the upstream declared, if it did. */
  contentLength: number | undefined;
  body: Readable;
}

/**
 * The upstream's media: `expired` once it no longer has the item; refused when it answers otherwise than with
 * the item (an error, a redirect, a file above `maxBytes`).
 */
/** A file to upload, read once as it streams in. */
export interface MediaUpload {
  filename: string;
  mimeType: string;
  type: UploadType;
  body: Readable;
}

export interface UpstreamMedia {
  /** Uploads a file (multipart, as it streams) for the number's sends; answers the upstream's media id. */
  uploadMedia(
    phoneNumberId: string,
    accessToken: string,
    upload: MediaUpload,
  ): Promise<{ ok: true; id: string } | UpstreamFailure>;
  openMedia(
    mediaId: string,
    accessToken: string,
    maxBytes: number,
  ): Promise<{ ok: true; media: MediaStream } | { ok: false; expired: boolean; message: string }>;
}
