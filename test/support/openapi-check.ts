import { subscribe } from 'node:diagnostics_channel';
import { appendFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import {
  buildOpenApiDocument,
  ERROR_CODES,
  FORWARDED_ADMIN_ROUTES,
  openApiPath,
  PUBLIC_ROUTES,
  UPSTREAM_WEBHOOK_ROUTES,
} from '@bm/contracts';
import type { RunningServer } from '@bm/platform';

/**
 * Every answer of a gateway started by the test helpers is held to the OpenAPI document it serves: the status is
 * one the operation declares, the content type too, and the body matches that status's schema. Answers outside
 * the document's operations (unknown path, another method) must be the error envelope with the status of its
 * code. A service that answers part of the API directly (webhook-ingress on /api/webhooks/channel) is held to
 * the document on those paths only. Every outbound webhook a local receiver gets is held to the document's
 * `webhooks` section: its event documented, its headers and body matching. A violation fails the test during
 * which the answer was sent or the webhook received (or the file, if outside any test).
 * OPENAPI_CHECK_STATS=<file> appends one JSON line per test file: answers checked, tests that sent any, webhooks
 * checked.
 */

/** How the answers of one server are held to the document. */
export interface CheckOptions {
  /**
   * The services behind this gateway are stand-ins (the gateway's component tests) answering canned bodies that
   * are not the API's: a success relayed on a forwarded operation is held to what the gateway makes of it (a
   * declared status, its own headers), not to its content. Every answer the gateway makes itself is checked whole.
   */
  standInServices?: boolean;
  /**
   * Only answers to these paths of the document (templates, `/api/webhooks/channel`) are checked: the server
   * answers them for the API, and its other paths (`/internal/...`, health, metrics) are outside the document.
   */
  paths?: readonly string[];
}

/** One HTTP answer as the checker sees it. */
export interface Answer {
  method: string;
  /** The path asked, query allowed; or a template (`/api/v1/messages/{id}`, Express `:id` too). */
  path: string;
  /** The template the server matched, when it tells (Express `:id` syntax). */
  route?: string;
  status: number;
  headers: Record<string, unknown>;
  /** The body as sent, decoded as UTF-8. */
  text: string;
}

interface MediaType {
  schema?: unknown;
}
interface DeclaredHeader {
  $ref?: string;
  schema?: { type?: string };
}
interface DeclaredResponse {
  headers?: Record<string, DeclaredHeader>;
  content?: Record<string, MediaType>;
}
type Operations = Record<string, { operationId?: string; responses: Record<string, DeclaredResponse> }>;
interface DeclaredParameter {
  name: string;
  in: string;
  required?: boolean;
}
type Webhooks = Record<string, { post: { parameters?: DeclaredParameter[] } }>;

// The document covers /api/** and the operator API, less the pages that are not the API (itself, Swagger UI).
const IN_SCOPE = /^\/(api|admin)(\/|$)/i;
const NOT_API = /^\/api\/(openapi\.json|docs)(\/|$)/i;
const PARSER_CODES = new Set(['BAD_REQUEST', 'HEADERS_TOO_LARGE']);
// The operations the gateway forwards: a success on one of them is always the service's answer, relayed.
const FORWARDED_OPERATIONS = new Set(
  [...PUBLIC_ROUTES, ...UPSTREAM_WEBHOOK_ROUTES, ...FORWARDED_ADMIN_ROUTES].map((r) => r.operationId),
);

interface Checker {
  headers: Record<string, DeclaredHeader>;
  templateOf(path: string): string | undefined;
  validator(pointer: string): ValidateFunction;
  paths: Record<string, Operations>;
  webhooks: Webhooks;
}

let checker: Checker | undefined;

/** The document, its path matchers and one ajv, built once per test file; validators compiled on first use. */
function getChecker(): Checker {
  if (checker) return checker;
  const document = buildOpenApiDocument();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document, 'openapi.json');
  const paths = document.paths as Record<string, Operations>;
  const escape = (s: string) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  // Literal paths before templated ones, as the gateway registers them (`/messages/send` before `/messages/{id}`).
  const matchers = Object.keys(paths)
    .map((template) => ({
      template,
      params: (template.match(/\{/g) ?? []).length,
      // Express matches case-insensitively and admits one trailing slash.
      regex: new RegExp(`^${escape(template).replace(/\{[^}]+\}/g, '[^/]+')}/?$`, 'i'),
    }))
    .sort((a, b) => a.params - b.params);
  const compiled = new Map<string, ValidateFunction>();
  checker = {
    headers: (document.components as { headers: Record<string, DeclaredHeader> }).headers,
    paths,
    webhooks: document.webhooks as Webhooks,
    templateOf: (path) => matchers.find((m) => m.regex.test(path))?.template,
    validator: (pointer) => {
      let validate = compiled.get(pointer);
      if (!validate) {
        validate = ajv.compile({ $ref: `openapi.json#${pointer}` });
        compiled.set(pointer, validate);
      }
      return validate;
    },
  };
  return checker;
}

const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

function header(headers: Record<string, unknown>, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  if (Array.isArray(value)) return value.join(', ');
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

function schemaProblems(c: Checker, pointer: string, body: unknown): string[] {
  const validate = c.validator(pointer);
  if (validate(body)) return [];
  return (validate.errors ?? []).map(
    (e) => `body${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
  );
}

function parsedJson(answer: Answer): { body?: unknown; problem?: string } {
  try {
    return { body: JSON.parse(answer.text) as unknown };
  } catch {
    return { problem: `body is not JSON: ${answer.text.slice(0, 100)}` };
  }
}

/** An answer no operation declares: only the error envelope, with the status of its code. */
function envelopeProblems(c: Checker, answer: Answer): string[] {
  if (answer.status < 400) return [`status ${answer.status} outside the document's operations`];
  if (!(header(answer.headers, 'content-type') ?? '').startsWith('application/json')) {
    return [`content-type ${header(answer.headers, 'content-type')}, not the JSON envelope`];
  }
  const { body, problem } = parsedJson(answer);
  if (problem) return [problem];
  const problems = schemaProblems(c, '/components/schemas/ErrorEnvelope', body);
  const code = (body as { error?: { code?: string } }).error?.code;
  const documented = ERROR_CODES[code as keyof typeof ERROR_CODES]?.status;
  if (problems.length === 0 && documented !== answer.status) {
    problems.push(`${code} answered with ${answer.status} (its status is ${documented})`);
  }
  return problems;
}

/** The document's template of the path answered, if the document has one. */
function templateOf(c: Checker, answer: Answer): string | undefined {
  const asked = answer.path.split('?')[0];
  return c.templateOf(openApiPath(answer.route ?? asked)) ?? c.templateOf(asked);
}

/** Whether the answer is one these options hold to the document. */
function inScope(c: Checker, answer: Answer, options: CheckOptions): boolean {
  const template = templateOf(c, answer);
  return !options.paths || (template !== undefined && options.paths.includes(template));
}

/** Where the answer departs from the document; empty when it conforms (or is outside `options.paths`). */
export function answerProblems(answer: Answer, options: CheckOptions = {}): string[] {
  const c = getChecker();
  if (!inScope(c, answer, options)) return [];
  const asked = answer.path.split('?')[0];
  const template = templateOf(c, answer);
  if (template === undefined) {
    return IN_SCOPE.test(asked) && !NOT_API.test(asked) ? envelopeProblems(c, answer) : [];
  }
  const operations = c.paths[template];
  const method = answer.method.toLowerCase() === 'head' ? 'get' : answer.method.toLowerCase();
  let operationKey = method in operations ? method : undefined;
  // Another method on a documented path: its 405 is declared by every operation of the path.
  if (operationKey === undefined && answer.status === 405) operationKey = Object.keys(operations)[0];
  if (operationKey === undefined) return envelopeProblems(c, answer);
  const declared = operations[operationKey].responses[String(answer.status)];
  if (declared === undefined) {
    const listed = Object.keys(operations[operationKey].responses).join(', ');
    return [`status ${answer.status} not declared (declared: ${listed})`];
  }
  const problems: string[] = [];
  for (const [name, spec] of Object.entries(declared.headers ?? {})) {
    const value = header(answer.headers, name);
    const type = (spec.$ref ? c.headers[spec.$ref.split('/').pop()!] : spec)?.schema?.type;
    if (value !== undefined && type === 'integer' && !/^\d+$/.test(value)) {
      problems.push(`header ${name}: ${value} is not an integer`);
    }
  }
  const relayed = answer.status < 300 && FORWARDED_OPERATIONS.has(operations[operationKey].operationId ?? '');
  if (options.standInServices && relayed) return problems;
  if (method === 'get' && answer.method.toLowerCase() === 'head') return problems;
  const mediaType = (header(answer.headers, 'content-type') ?? '').split(';')[0].trim().toLowerCase();
  // A file's answer declares a range (`*/*`): any type of it matches.
  const media =
    declared.content?.[mediaType] ??
    declared.content?.[`${mediaType.split('/')[0]}/*`] ??
    (mediaType === '' ? undefined : declared.content?.['*/*']);
  if (media === undefined) {
    return [...problems, `content-type ${mediaType || 'none'} not declared for ${answer.status}`];
  }
  if (mediaType !== 'application/json') return problems;
  const { body, problem } = parsedJson(answer);
  if (problem) return [...problems, problem];
  const pointer = `/paths/${escapePointer(template)}/${operationKey}/responses/${answer.status}/content/application~1json/schema`;
  return [...problems, ...schemaProblems(c, pointer, body)];
}

/** The operationId the document gives this method on this path (asked or template), if any. */
export function operationIdOf(path: string, method: string): string | undefined {
  const c = getChecker();
  const template = c.templateOf(openApiPath(path.split('?')[0]));
  const operation = template === undefined ? undefined : c.paths[template][method.toLowerCase()];
  return (operation as { operationId?: string } | undefined)?.operationId;
}

const run = { answers: 0, violations: [] as string[], answersBeforeTest: 0, testsWithAnswers: 0 };

function record(answer: Answer, options: CheckOptions, parser = false): void {
  if (!parser && !inScope(getChecker(), answer, options)) return;
  run.answers += 1;
  let problems: string[];
  try {
    problems = parser ? parserAnswerProblems(answer) : answerProblems(answer, options);
  } catch (error) {
    problems = [`the check failed: ${String(error)}`];
  }
  if (problems.length > 0) {
    const asked = `${answer.method} ${answer.path.slice(0, 200)} -> ${answer.status} ${answer.text.slice(0, 300)}`;
    run.violations.push(`${asked}\n    ${problems.slice(0, 5).join('\n    ')}`);
  }
}

/** Node's HTTP parser answers before any route: an error envelope with BAD_REQUEST or HEADERS_TOO_LARGE. */
function parserAnswerProblems(answer: Answer): string[] {
  const problems = envelopeProblems(getChecker(), answer);
  const code = (parsedJson(answer).body as { error?: { code?: string } } | undefined)?.error?.code;
  return problems.length > 0 || PARSER_CODES.has(code ?? '') ? problems : [`parser answered ${code}`];
}

function observeAnswer(req: IncomingMessage, res: ServerResponse, options: CheckOptions): void {
  const method = req.method ?? '';
  const path = req.url ?? '';
  const chunks: Buffer[] = [];
  const keep = (chunk: unknown, encoding: unknown) => {
    if (typeof chunk === 'string') {
      chunks.push(Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
    } else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return write(chunk, ...rest);
  }) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return end(chunk, ...rest);
  }) as typeof res.end;
  res.once('finish', () => {
    const route = (res as { locals?: { route?: unknown } }).locals?.route;
    record(
      {
        method,
        path,
        route: typeof route === 'string' ? route : undefined,
        status: res.statusCode,
        headers: res.getHeaders(),
        text: Buffer.concat(chunks).toString('utf8'),
      },
      options,
    );
  });
}

/** The platform's clientError handler writes a whole HTTP answer on the socket: read it back from there. */
function observeParserAnswer(_error: Error, socket: Socket): void {
  const end = socket.end.bind(socket) as (...args: unknown[]) => Socket;
  socket.end = (data?: unknown, ...rest: unknown[]) => {
    if (typeof data === 'string') {
      const [head, ...body] = data.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const at = line.indexOf(':');
        headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
      }
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
      const text = body.join('\r\n\r\n');
      record({ method: '(unparsed)', path: '', status, headers, text }, {}, true);
    }
    return end(data, ...rest);
  };
}

// The servers whose answers are checked: the requests they get are the API's, never an outbound webhook.
const answering = new WeakSet<Server>();

/** Checks every answer of this server (a gateway) against the document, from the first byte it sends. */
export function checkAnswersAgainstOpenApi(running: RunningServer, options: CheckOptions = {}): void {
  answering.add(running.server);
  running.server.prependListener('request', (req: IncomingMessage, res: ServerResponse) =>
    observeAnswer(req, res, options),
  );
  running.server.prependListener('clientError', observeParserAnswer);
}

/** One outbound webhook as the client's endpoint receives it. */
export interface Delivery {
  /** As Node gives them: names in lower case. */
  headers: Record<string, unknown>;
  /** The raw body, decoded as UTF-8. */
  body: string;
}

/**
 * Where a delivery departs from the document's `webhooks` section; empty when it conforms. The body's `event`
 * names the webhook: an event the section does not document is a violation (every emitted event is documented).
 */
export function webhookProblems(delivery: Delivery): string[] {
  const c = getChecker();
  let body: unknown;
  try {
    body = JSON.parse(delivery.body) as unknown;
  } catch {
    return [`body is not JSON: ${delivery.body.slice(0, 100)}`];
  }
  const event = (body as { event?: unknown } | null)?.event;
  if (typeof event !== 'string') return ['body has no string `event`'];
  const webhook = Object.hasOwn(c.webhooks, event) ? c.webhooks[event] : undefined;
  if (webhook === undefined) return [`event ${event} is not in the document's webhooks`];
  const pointer = `/webhooks/${escapePointer(event)}/post`;
  const problems: string[] = [];
  const mediaType = (header(delivery.headers, 'content-type') ?? '').split(';')[0];
  if (mediaType.trim().toLowerCase() !== 'application/json') {
    problems.push(`content-type ${mediaType || 'none'}, not application/json`);
  }
  (webhook.post.parameters ?? []).forEach((parameter, i) => {
    if (parameter.in !== 'header') return;
    const value = header(delivery.headers, parameter.name);
    if (value === undefined) {
      if (parameter.required) problems.push(`header ${parameter.name} missing`);
      return;
    }
    const validate = c.validator(`${pointer}/parameters/${i}/schema`);
    if (!validate(value)) {
      problems.push(`header ${parameter.name}: ${String(value)} ${validate.errors?.[0]?.message ?? ''}`);
    }
  });
  const schema = `${pointer}/requestBody/content/application~1json/schema`;
  return [...problems, ...schemaProblems(c, schema, body)];
}

const deliveries = { checking: false, received: 0 };

/** Outbound webhooks carry the dispatcher's `<service>-Webhook/1.0` agent and its `X-Webhook-*` headers. */
function isDelivery(req: IncomingMessage): boolean {
  return (
    req.method === 'POST' &&
    (/-Webhook\/1\.0$/.test(req.headers['user-agent'] ?? '') ||
      Object.keys(req.headers).some((name) => name.startsWith('x-webhook-')))
  );
}

/**
 * From now on, every outbound webhook any HTTP server of this process receives (the local receivers of the e2e
 * tests) is held to the document's `webhooks` section; the servers whose answers are checked are not receivers.
 * Node announces each request before the server's own handler reads it, so the body is seen whole.
 */
export function checkWebhookDeliveriesAgainstOpenApi(): void {
  if (deliveries.checking) return;
  deliveries.checking = true;
  subscribe('http.server.request.start', (message) => {
    const { request, server } = message as { request: IncomingMessage; server: Server };
    if (answering.has(server) || !isDelivery(request)) return;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      deliveries.received += 1;
      const delivery = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      let problems: string[];
      try {
        problems = webhookProblems(delivery);
      } catch (error) {
        problems = [`the check failed: ${String(error)}`];
      }
      if (problems.length > 0) {
        const seen = `webhook POST ${request.url ?? ''} ${delivery.body.slice(0, 300)}`;
        run.violations.push(`${seen}\n    ${problems.slice(0, 5).join('\n    ')}`);
      }
    });
  });
}

/** How many outbound webhooks were checked so far in this test file. */
export function webhooksChecked(): number {
  return deliveries.received;
}

/** How many answers were checked so far in this test file. */
export function answersChecked(): number {
  return run.answers;
}

function failOnViolations(when: string): void {
  const found = run.violations.splice(0);
  if (found.length === 0) return;
  const shown = found.slice(0, 10).join('\n  ');
  throw new Error(
    `${found.length} answer(s) or webhook(s) ${when} depart from the OpenAPI document:\n  ${shown}`,
  );
}

// Registered by importing this module (the stack helpers and the gateway's and webhook-ingress's factories do),
// so every test that starts a checked server or receives a checked webhook is covered.
if (typeof afterEach === 'function') {
  beforeEach(() => {
    run.answersBeforeTest = run.answers;
  });
  afterEach(() => {
    if (run.answers > run.answersBeforeTest) run.testsWithAnswers += 1;
    failOnViolations('during this test');
  });
  afterAll(() => {
    const file = process.env.OPENAPI_CHECK_STATS;
    if (file && (run.answers > 0 || deliveries.received > 0)) {
      const { testPath } = expect.getState();
      const line = {
        file: testPath,
        answers: run.answers,
        tests: run.testsWithAnswers,
        webhooks: deliveries.received,
      };
      appendFileSync(file, `${JSON.stringify(line)}\n`);
    }
    failOnViolations('outside the tests');
  });
}
