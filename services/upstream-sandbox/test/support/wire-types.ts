/** The shapes tests read back from the sandbox. */
export interface GraphErrorBody {
  message: string;
  type: string;
  code: number;
  is_transient?: boolean;
  error_data: { messaging_product: string; details: string };
  fbtrace_id: string;
}

/** Either a success or an error, read loosely: a test asserting on the wrong one fails on its expectation. */
export interface SendAnswer {
  messaging_product: string;
  contacts: { input: string; wa_id: string }[];
  messages: { id: string }[];
  error: GraphErrorBody;
}

export interface StatusItem {
  id: string;
  status: string;
  timestamp: string;
  recipient_id: string;
  recipient_user_id?: string;
  conversation?: unknown;
  pricing?: Record<string, unknown>;
  biz_opaque_callback_data?: string;
  errors?: { code: number; title: string; message: string; error_data: { details: string } }[];
}

export interface WebhookPayload {
  object: string;
  entry: {
    id: string;
    time?: number;
    changes: {
      field: string;
      value: { statuses?: StatusItem[]; messages?: Record<string, unknown>[]; [key: string]: unknown };
    }[];
  }[];
}

export interface TemplateItem {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string;
}

export interface TemplatePage {
  data: TemplateItem[];
  paging: { cursors: { before: string; after: string }; next?: string; previous?: string };
  error: GraphErrorBody;
}

export interface SendLogEntry {
  result: 'accepted' | 'rejected';
  http_status: number;
  body: { text?: { body: string } };
  error_code?: number;
  fault?: string;
  message_id?: string;
  answer_dropped?: boolean;
}
