import type { MessageLog } from '../../data-access/message-log.repository';
import type { SendResult, UpstreamTemplate } from '../../data-access/upstream/cloud-api.client';
import type { UpstreamFailure } from '../../data-access/upstream/upstream-errors';

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
}
