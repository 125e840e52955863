import { ERROR_CODES, type ErrorCode } from '../error-codes';
import { minimumRoleFor } from '../roles';
import { FORWARDED_ADMIN_ROUTES, PUBLIC_ROUTES, UPSTREAM_WEBHOOK_ROUTES } from '../routes';
import { DTO_SCHEMAS } from './dto-schemas';
import { joiToJsonSchema, type JsonSchema } from './joi-to-json-schema';
import { GATEWAY_ROUTES, OPERATIONS, type OperationSpec } from './operations';
import { webhooksSection } from './webhook-events';

/** Every route the document lists: the gateway's own, the public table, the upstream's and the operator API. */
export const DOCUMENTED_ROUTES: readonly { method: string; path: string; operationId: string }[] = [
  ...GATEWAY_ROUTES,
  ...PUBLIC_ROUTES,
  ...UPSTREAM_WEBHOOK_ROUTES,
  ...FORWARDED_ADMIN_ROUTES,
];

/** `/api/v1/messages/:id` → `/api/v1/messages/{id}`. */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z_]+)/g, '{$1}');
}

const schemaRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

// Besides the routes' own: a request Node's HTTP parser refuses gets 400 BAD_REQUEST or 431 HEADERS_TOO_LARGE.
const COMMON_ERRORS: ErrorCode[] = [
  'METHOD_NOT_ALLOWED',
  'INTERNAL_ERROR',
  'BAD_REQUEST',
  'HEADERS_TOO_LARGE',
];
// What reading a body as JSON can answer (CONTRACT.md: 400, 413, 415 for any body).
const BODY_READ_ERRORS: ErrorCode[] = ['INVALID_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];
// The services behind the gateway read any request's JSON body, also one the operation takes none of.
const READS_ANY_BODY = new Set<string>(
  [...PUBLIC_ROUTES, ...UPSTREAM_WEBHOOK_ROUTES, ...FORWARDED_ADMIN_ROUTES].map((r) => r.operationId),
);
const AUTH_ERRORS: Record<OperationSpec['auth'], ErrorCode[]> = {
  apiKey: [
    'INVALID_API_KEY',
    'SESSION_EXPIRED',
    'TENANT_FORBIDDEN',
    'CSRF_FAILED',
    'FORBIDDEN_FOR_ROLE',
    'RATE_LIMIT_EXCEEDED',
    'SERVICE_UNAVAILABLE',
  ],
  session: ['SESSION_EXPIRED', 'CSRF_FAILED', 'SERVICE_UNAVAILABLE'],
  admin: ['INVALID_API_KEY', 'SERVICE_UNAVAILABLE'],
  none: [],
  upstream: ['SERVICE_UNAVAILABLE'],
};

/** The error codes an operation may answer, grouped by their HTTP status. */
export function errorCodesOf(
  spec: OperationSpec,
  route: { path: string; operationId: string } = { path: '', operationId: '' },
): Map<number, ErrorCode[]> {
  const codes = new Set<ErrorCode>([...AUTH_ERRORS[spec.auth], ...spec.errors, ...COMMON_ERRORS]);
  if (spec.body || READS_ANY_BODY.has(route.operationId)) BODY_READ_ERRORS.forEach((c) => codes.add(c));
  if (spec.body || spec.query) codes.add('VALIDATION_ERROR');
  // A path parameter that does not percent-decode (`/messages/%E0%A4%A`) names no route.
  if (route.path.includes(':')) codes.add('NOT_FOUND');
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status: number = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return byStatus;
}

const EVENT_STREAM_DESCRIPTION =
  'Server-sent events (https://html.spec.whatwg.org/multipage/server-sent-events.html). The stream opens with ' +
  '`retry: 2000`; every event has an `id:` to send back as `Last-Event-ID` on reconnection (the events after it ' +
  'are sent first, from any gateway); a `: ping` comment comes every 15 s. Each `data:` is one line of JSON.';

function successResponse(
  spec: Pick<OperationSpec, 'data' | 'summary' | 'setCookie' | 'eventStream' | 'binary' | 'csv'>,
  rateHeaders: Record<string, unknown>,
) {
  if (spec.csv) {
    return {
      description: spec.summary,
      headers: {
        'X-Request-Id': headerRef('X-Request-Id'),
        ...rateHeaders,
        'Content-Disposition': {
          description: 'attachment, with a file name',
          schema: { type: 'string' },
        },
      },
      content: {
        'text/csv': {
          schema: {
            type: 'string',
            description:
              `RFC 4180 CSV with a header line: ${spec.csv.join(', ')}. Instants are ISO 8601 UTC; a cell that ` +
              "starts with = + - @ is prefixed with ' against formula injection. Streamed (chunked) as it is read",
          },
        },
      },
    };
  }
  if (spec.binary) {
    return {
      description: spec.summary,
      headers: {
        'X-Request-Id': headerRef('X-Request-Id'),
        ...rateHeaders,
        'Content-Length': {
          description: 'The file size, when the upstream gave it',
          schema: { type: 'integer' },
        },
      },
      content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
    };
  }
  if (spec.eventStream) {
    // Each event as its fields: the JSON in `data` is described by its contentSchema (OpenAPI 3.1, JSON Schema
    // 2020-12), the events of the stream as the items of a sequence.
    const events = Object.entries(spec.eventStream).map(([name, data]) => ({
      type: 'object',
      required: ['id', 'event', 'data'],
      properties: {
        id: { type: 'string', pattern: '^\\d+-\\d+$', description: 'Send back as Last-Event-ID' },
        event: { const: name },
        data: { type: 'string', contentMediaType: 'application/json', contentSchema: schemaRef(data) },
      },
    }));
    return {
      description: spec.summary,
      headers: { 'X-Request-Id': headerRef('X-Request-Id'), ...rateHeaders },
      content: {
        'text/event-stream': {
          schema: { type: 'array', description: EVENT_STREAM_DESCRIPTION, items: { oneOf: events } },
        },
      },
    };
  }
  if (spec.data === null) {
    return {
      description: 'The hub.challenge, echoed',
      headers: { 'X-Request-Id': headerRef('X-Request-Id') },
      content: { 'text/plain': { schema: { type: 'string' } } },
    };
  }
  return {
    description: spec.summary,
    headers: {
      'X-Request-Id': headerRef('X-Request-Id'),
      ...rateHeaders,
      ...(spec.setCookie
        ? { 'Set-Cookie': { description: spec.setCookie, schema: { type: 'string' } } }
        : {}),
    },
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['success', 'data'],
          properties: { success: { const: true }, data: schemaRef(spec.data) },
          additionalProperties: false,
        },
      },
    },
  };
}

function errorResponse(status: number, codes: ErrorCode[], rateHeaders: Record<string, unknown>) {
  const headers: Record<string, unknown> = { 'X-Request-Id': headerRef('X-Request-Id'), ...rateHeaders };
  // 429: the tenant's rate window; 503: the service is down or draining (restarted within seconds).
  if (status === 429 || codes.includes('SERVICE_UNAVAILABLE'))
    headers['Retry-After'] = headerRef('Retry-After');
  if (status === 405) headers.Allow = headerRef('Allow');
  return {
    description: codes.join(', '),
    headers,
    content: {
      'application/json': {
        schema: {
          allOf: [
            schemaRef('ErrorEnvelope'),
            { properties: { error: { properties: { code: { enum: codes } } } } },
          ],
        },
      },
    },
  };
}

function parametersOf(path: string, spec: OperationSpec): unknown[] {
  const params: unknown[] = [...path.matchAll(/:([A-Za-z_]+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (spec.query) {
    const query = joiToJsonSchema(spec.query);
    const required = (query.required as string[] | undefined) ?? [];
    for (const [name, schema] of Object.entries((query.properties as Record<string, JsonSchema>) ?? {})) {
      params.push({ name, in: 'query', required: required.includes(name), schema });
    }
  }
  if (spec.eventStream) params.push({ $ref: '#/components/parameters/LastEventId' });
  if (spec.data === null && !spec.eventStream && !spec.binary && !spec.csv) {
    for (const name of ['hub.mode', 'hub.verify_token', 'hub.challenge']) {
      params.push({ name, in: 'query', required: true, schema: { type: 'string' } });
    }
  }
  if (spec.auth === 'apiKey') params.push({ $ref: '#/components/parameters/XTenantId' });
  if (spec.idempotent) params.push({ $ref: '#/components/parameters/IdempotencyKey' });
  if (spec.auth === 'upstream') params.push({ $ref: '#/components/parameters/HubSignature' });
  params.push({ $ref: '#/components/parameters/XRequestIdIn' });
  return params;
}

function operationOf(
  route: { method: string; path: string; operationId: string },
  requests: Record<string, JsonSchema>,
) {
  const spec = OPERATIONS[route.operationId];
  if (spec === undefined) throw new Error(`No OpenAPI description for ${route.operationId}`);
  const rateHeaders =
    spec.auth === 'apiKey'
      ? {
          'X-RateLimit-Limit': headerRef('X-RateLimit-Limit'),
          'X-RateLimit-Remaining': headerRef('X-RateLimit-Remaining'),
          'X-RateLimit-Reset': headerRef('X-RateLimit-Reset'),
        }
      : {};
  const responses: Record<string, unknown> = { [String(spec.status)]: successResponse(spec, rateHeaders) };
  for (const alt of spec.alternatives ?? []) {
    responses[String(alt.status)] = successResponse(
      { data: alt.data, summary: alt.description },
      rateHeaders,
    );
  }
  for (const [status, codes] of [...errorCodesOf(spec, route)].sort(([a], [b]) => a - b)) {
    responses[String(status)] = errorResponse(status, codes, rateHeaders);
  }
  const operation: Record<string, unknown> = {
    operationId: route.operationId,
    summary: spec.summary,
    tags: [spec.tag],
    parameters: parametersOf(route.path, spec),
    responses,
  };
  // The lowest role that may call it with a session or a role-bound key (403 FORBIDDEN_FOR_ROLE below it).
  if (spec.auth === 'apiKey') operation['x-minimum-role'] = minimumRoleFor(route.operationId);
  // A dashboard session stands in for the key: the cookie, with the CSRF header on state-changing requests.
  if (spec.auth === 'apiKey') operation.security = [{ apiKey: [] }, { sessionCookie: [], csrfToken: [] }];
  else if (spec.auth === 'session') operation.security = [{ sessionCookie: [], csrfToken: [] }];
  else if (spec.auth === 'admin') operation.security = [{ adminToken: [] }];
  else operation.security = [];
  if (spec.body) {
    const name = `${route.operationId[0].toUpperCase()}${route.operationId.slice(1)}Request`;
    requests[name] = joiToJsonSchema(spec.body);
    operation.requestBody = {
      required: spec.bodyOptional !== true,
      content: { 'application/json': { schema: schemaRef(name) } },
    };
  } else if (spec.multipart) {
    const fields = joiToJsonSchema(spec.multipart);
    const schema = {
      ...fields,
      required: [...((fields.required as string[] | undefined) ?? []), 'file'],
      properties: {
        ...(fields.properties as Record<string, JsonSchema>),
        file: { type: 'string', format: 'binary', description: 'The file, with its content type' },
      },
    };
    operation.requestBody = { required: true, content: { 'multipart/form-data': { schema } } };
  } else if (spec.auth === 'upstream') {
    operation.requestBody = {
      required: true,
      content: { 'application/json': { schema: { type: 'object', description: 'Upstream webhook body' } } },
    };
  }
  return operation;
}

const errorEnvelope: JsonSchema = {
  type: 'object',
  required: ['success', 'error'],
  properties: {
    success: { const: false },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: Object.keys(ERROR_CODES) },
        message: { type: 'string' },
        details: {
          type: 'object',
          description:
            'VALIDATION_ERROR: `errors` = [{field, message}]; MESSAGE_NOT_CANCELLABLE: `status`; …',
          properties: { errors: { type: 'array', items: schemaRef('FieldError') } },
        },
      },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

/** The document's tags, in the order the docs page shows them. */
const TAGS: Record<string, string> = {
  Messages: 'Single text and template messages: send, read, list, cancel a scheduled one',
  Numbers: "The tenant's sending numbers (channel accounts), connected by the operator",
  Templates: "The account's templates as the upstream network approved them; submitting new ones",
  Campaigns: 'Bulk template campaigns of up to 50,000 recipients, split across days when capacity runs short',
  'Opt-outs': "The tenant's opted-out contacts (also STOP / START from customers)",
  Webhooks: 'Outbound webhook settings, signing secret, test ping and the delivery health monitor',
  Notifications: 'Live-chat requests and template reviews raised for the tenant',
  Flows: 'Conversation flows (chatbots) and their sessions',
  'API keys': "The tenant's own API keys: list, issue, revoke",
  Team: "The tenant's dashboard users",
  'Dashboard sessions':
    'Dashboard users: set the password from an invite, sign in and out. The session cookie `bm_session` ' +
    '(HttpOnly, SameSite=Lax, Secure over HTTPS) lasts 30 minutes idle and 12 hours at most',
  Health: 'The health report (no API key)',
  'Upstream network': 'The endpoints the upstream network calls: verification and signed event webhooks',
  Operator: 'Tenants, API keys, channel accounts and the inbound audit log (ADMIN_TOKEN)',
  'Outbound webhooks': "The events POSTed to the tenant's webhook URL, signed with its secret",
};

const integerHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

/** The OpenAPI 3.1 document of the public API, built from the route tables and the joi schemas. */
export function buildOpenApiDocument(): Record<string, unknown> {
  const requests: Record<string, JsonSchema> = {};
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of DOCUMENTED_ROUTES) {
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operationOf(route, requests) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Business Messaging API',
      version: '1.0.0',
      description:
        'Send WhatsApp-style messages one at a time or in campaigns, and follow them by polling and by signed ' +
        'webhooks. Every body of /api/** is the envelope `{success, data}` or `{success: false, error}`; ' +
        'API datetimes are UTC (`toISOString()`), phones are digits with country code.',
    },
    // Relative: the gateway that serves this document (`pnpm start`: http://localhost:3000).
    servers: [{ url: '/', description: 'The gateway serving this document' }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    webhooks: webhooksSection(),
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'bm_live_<key id><secret>' },
        adminToken: { type: 'http', scheme: 'bearer', description: 'The ADMIN_TOKEN of the operator API' },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'bm_session',
          description: 'The dashboard session, set by POST /api/auth/sign-in (HttpOnly, SameSite=Lax)',
        },
        csrfToken: {
          type: 'apiKey',
          in: 'header',
          name: 'X-CSRF-Token',
          description:
            "The session's CSRF token: required with the cookie on POST, PUT, PATCH and DELETE, together " +
            'with a same-origin Origin or Sec-Fetch-Site (403 CSRF_FAILED otherwise)',
        },
      },
      schemas: {
        ErrorEnvelope: errorEnvelope,
        FieldError: {
          type: 'object',
          required: ['field', 'message'],
          properties: { field: { type: 'string' }, message: { type: 'string' } },
          additionalProperties: false,
        },
        ...DTO_SCHEMAS,
        ...requests,
      },
      parameters: {
        XTenantId: {
          name: 'X-TENANT-ID',
          in: 'header',
          description: "When sent, must name the key's tenant (403 TENANT_FORBIDDEN otherwise)",
          schema: { type: 'string', pattern: '^\\d+$' },
        },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          description: 'A replay with the same key and body answers the first result; another body is 409',
          schema: { type: 'string', maxLength: 255 },
        },
        HubSignature: {
          name: 'X-Hub-Signature-256',
          in: 'header',
          required: true,
          description: '`sha256=<hex HMAC-SHA256 of the raw body with the app secret>`',
          schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' },
        },
        LastEventId: {
          name: 'Last-Event-ID',
          in: 'header',
          description:
            'The `id:` of the last event received: the stream starts with the events after it (as many as the ' +
            'gateway still keeps, the latest few thousand per tenant); absent, it starts with new events only',
          schema: { type: 'string', pattern: '^\\d{1,15}-\\d{1,15}$' },
        },
        XRequestIdIn: {
          name: 'X-Request-Id',
          in: 'header',
          description: 'Echoed back; a new one is made when absent',
          schema: { type: 'string' },
        },
      },
      headers: {
        'X-Request-Id': { description: "The client's own value, or a new one", schema: { type: 'string' } },
        'X-RateLimit-Limit': integerHeader(
          "Requests per window of the tenant's plan, on every answer under /api/v1 (a 401 has no tenant: it states " +
            'the default plan, uncounted). The `unlimited` plan states 2147483647, a budget no client spends',
        ),
        'X-RateLimit-Remaining': integerHeader(
          'Requests left in this window; on the `unlimited` plan always 2147483647, never counted down',
        ),
        'X-RateLimit-Reset': integerHeader(
          "Seconds until the window resets; on the `unlimited` plan its window's length (1)",
        ),
        'Retry-After': integerHeader(
          'Seconds to wait before retrying: on 429 until the rate window resets; on 503 SERVICE_UNAVAILABLE while ' +
            'the service (or a dependency of it) is down or draining',
        ),
        Allow: { description: 'The methods this path accepts', schema: { type: 'string' } },
      },
    },
  };
}
