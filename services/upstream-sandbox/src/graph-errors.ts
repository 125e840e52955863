import type { Response } from 'express';
import { newTraceId } from './ids';

interface CodeInfo {
  /** The short title the upstream puts in `message` (as `(#code) title`) and in failed statuses. */
  title: string;
  details: string;
  httpStatus: number;
}

/** What the upstream answers for each error code the platform must handle (UPSTREAM-REFERENCE.md). */
const CATALOG: Record<number, CodeInfo> = {
  1: { title: 'An unknown error occurred', details: 'An unknown error occurred.', httpStatus: 500 },
  100: { title: 'Invalid parameter', details: 'Invalid parameter.', httpStatus: 400 },
  190: {
    title: 'Invalid OAuth access token - Cannot parse access token',
    details: 'The access token is missing, invalid or expired.',
    httpStatus: 401,
  },
  130429: {
    title: 'Rate limit hit',
    details: 'Cloud API message throughput has been reached.',
    httpStatus: 400,
  },
  130472: {
    title: "User's number is part of an experiment",
    details: 'Failed to send message because this user is part of a marketing message experiment.',
    httpStatus: 400,
  },
  131048: {
    title: 'Spam rate limit hit',
    details:
      'Message failed to send because the business portfolio reached its daily limit of business-initiated messaging.',
    httpStatus: 400,
  },
  131000: {
    title: 'Something went wrong',
    details: 'Message failed to send due to an unknown error.',
    httpStatus: 500,
  },
  131008: {
    title: 'Required parameter is missing',
    details: 'A required parameter is missing.',
    httpStatus: 400,
  },
  131009: {
    title: 'Parameter value is not valid',
    details: 'A parameter value is not valid.',
    httpStatus: 400,
  },
  131016: { title: 'Service unavailable', details: 'A service is temporarily unavailable.', httpStatus: 503 },
  131026: {
    title: 'Message undeliverable',
    details: 'Unable to deliver message. The recipient may not be a WhatsApp user or may use an old app.',
    httpStatus: 400,
  },
  131047: {
    title: 'Re-engagement message',
    details:
      'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
    httpStatus: 400,
  },
  131049: {
    title: 'This message was not delivered to maintain healthy ecosystem engagement.',
    details: 'In order to maintain a healthy ecosystem engagement, the message failed to be delivered.',
    httpStatus: 400,
  },
  131050: {
    title: 'Unable to deliver the message. This recipient has chosen to stop receiving marketing messages.',
    details: 'The user has stopped marketing messages from this business.',
    httpStatus: 400,
  },
  131056: {
    title: '(Business Account, Consumer Account) pair rate limit hit',
    details:
      'Too many messages were sent from this phone number to the same phone number in a short period of time.',
    httpStatus: 400,
  },
  131057: {
    title: 'Account in maintenance mode',
    details: 'Business Account is in maintenance mode.',
    httpStatus: 400,
  },
  131062: {
    title: 'Business-scoped user id not supported for this template',
    details:
      'One-tap, zero-tap and copy-code authentication templates cannot be sent to a business-scoped user id.',
    httpStatus: 400,
  },
  132000: {
    title: 'Number of parameters does not match the expected number of params',
    details: 'The number of parameters does not match the number of placeholders in the template.',
    httpStatus: 400,
  },
  132001: {
    title: 'Template name does not exist in the translation',
    details: 'The template does not exist in that language or is not approved.',
    httpStatus: 404,
  },
  132012: {
    title: 'Parameter format does not match format in the created template',
    details: 'A parameter does not match the format of the template.',
    httpStatus: 400,
  },
  132015: {
    title: 'Template is Paused',
    details: 'The template is paused due to low quality.',
    httpStatus: 400,
  },
  132016: { title: 'Template is Disabled', details: 'The template has been disabled.', httpStatus: 400 },
};

/** The title and default details of a code; a plain 5xx (500-599) reads as the Graph API's unknown error. */
export function describeCode(code: number): CodeInfo {
  if (code >= 500 && code <= 599 && CATALOG[code] === undefined) {
    return { ...CATALOG[1], httpStatus: code };
  }
  return (
    CATALOG[code] ?? { title: 'Sandbox injected error', details: 'Injected by the sandbox.', httpStatus: 400 }
  );
}

/** An error answered in the Graph API's shape: `{"error":{"message","type","code","error_data","fbtrace_id"}}`. */
export class GraphError extends Error {
  constructor(
    readonly code: number,
    readonly httpStatus: number,
    readonly title: string,
    readonly details: string,
    readonly extra: { type?: string; error_subcode?: number; is_transient?: boolean } = {},
  ) {
    super(`(#${code}) ${title}`);
  }

  /** An error with the catalog's title and status, optionally other details or status. */
  static of(code: number, details?: string, httpStatus?: number): GraphError {
    const info = describeCode(code);
    const plain5xx = code >= 500 && code <= 599 && CATALOG[code] === undefined;
    return new GraphError(
      plain5xx ? 1 : code,
      httpStatus ?? info.httpStatus,
      info.title,
      details ?? info.details,
      plain5xx ? { is_transient: true } : {},
    );
  }

  toBody(): Record<string, unknown> {
    return {
      error: {
        message: this.message,
        type: this.extra.type ?? 'OAuthException',
        code: this.code,
        ...(this.extra.error_subcode === undefined ? {} : { error_subcode: this.extra.error_subcode }),
        ...(this.extra.is_transient === undefined ? {} : { is_transient: this.extra.is_transient }),
        error_data: { messaging_product: 'whatsapp', details: this.details },
        fbtrace_id: newTraceId(),
      },
    };
  }
}

/** Writes a GraphError as the upstream would. */
export function sendGraphError(res: Response, error: GraphError): void {
  res.status(error.httpStatus).json(error.toBody());
}

/** A bad request to a `/_sandbox` control endpoint; same shape, so one client reads both. */
export function controlError(details: string, httpStatus = 400): GraphError {
  return new GraphError(100, httpStatus, 'Invalid sandbox request', details, { type: 'SandboxException' });
}
