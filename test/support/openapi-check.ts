import { appendFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument, ERROR_CODES, openApiPath } from '@bm/contracts';
import type { RunningServer } from '@bm/platform';

/**
 * Every answer of a gateway started by the test helpers is held to the OpenAPI document it serves: the status is
 * one the operation declares, the content type too, and the body matches that status's schema. Answers outside
 * the document's operations (unknown path, another method) must be the error envelope with the status of its
 * code. A violation fails the test during which the answer was sent (or the file, if outside any test).
 * OPENAPI_CHECK_STATS=<file> appends one JSON line per test file: answers checked and tests that sent any.
 */

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
type Operations = Record<string, { responses: Record<string, DeclaredResponse> }>;

// The document covers /api/** and the operator API, less the pages that are not the API (itself, Swagger UI).
const IN_SCOPE = /^\/(api|admin)(\/|$)/i;
const NOT_API = /^\/api\/(openapi\.json|docs)(\/|$)/i;
const PARSER_CODES = new Set(['BAD_REQUEST', 'HEADERS_TOO_LARGE']);

interface Checker {
  headers: Record<string, DeclaredHeader>;
  templateOf(path: string): string | undefined;
  validator(pointer: string): ValidateFunction;
  paths: Record<string, Operations>;
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

function header(answer: Answer, name: string): string | undefined {
  const value = answer.headers[name.toLowerCase()];
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
  if (!(header(answer, 'content-type') ?? '').startsWith('application/json')) {
    return [`content-type ${header(answer, 'content-type')}, not the JSON envelope`];
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

/** Where the answer departs from the document; empty when it conforms. */
export function answerProblems(answer: Answer): string[] {
  const c = getChecker();
  const asked = answer.path.split('?')[0];
  const template = c.templateOf(openApiPath(answer.route ?? asked)) ?? c.templateOf(asked);
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
    const value = header(answer, name);
    const type = (spec.$ref ? c.headers[spec.$ref.split('/').pop()!] : spec)?.schema?.type;
    if (value !== undefined && type === 'integer' && !/^\d+$/.test(value)) {
      problems.push(`header ${name}: ${value} is not an integer`);
    }
  }
  if (method === 'get' && answer.method.toLowerCase() === 'head') return problems;
  const mediaType = (header(answer, 'content-type') ?? '').split(';')[0].trim().toLowerCase();
  const media = declared.content?.[mediaType];
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

function record(answer: Answer, parser = false): void {
  run.answers += 1;
  let problems: string[];
  try {
    problems = parser ? parserAnswerProblems(answer) : answerProblems(answer);
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

function observeAnswer(req: IncomingMessage, res: ServerResponse): void {
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
    record({
      method,
      path,
      route: typeof route === 'string' ? route : undefined,
      status: res.statusCode,
      headers: res.getHeaders(),
      text: Buffer.concat(chunks).toString('utf8'),
    });
  });
}

/** The platform's clientError handler writes a whole HTTP answer on the socket: read it back from there. */
function observeParserAnswer(_error: Error, socket: Socket): void {
  const end = socket.end.bind(socket) as (...args: unknown[]) => Socket;
  socket.end = ((data?: unknown, ...rest: unknown[]) => {
    if (typeof data === 'string') {
      const [head, ...body] = data.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const at = line.indexOf(':');
        headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
      }
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
      record({ method: '(unparsed)', path: '', status, headers, text: body.join('\r\n\r\n') }, true);
    }
    return end(data, ...rest);
  }) as typeof socket.end;
}

/** Checks every answer of this server (a gateway) against the document, from the first byte it sends. */
export function checkAnswersAgainstOpenApi(running: RunningServer): void {
  running.server.prependListener('request', observeAnswer);
  running.server.prependListener('clientError', observeParserAnswer);
}

/** How many answers were checked so far in this test file. */
export function answersChecked(): number {
  return run.answers;
}

function failOnViolations(when: string): void {
  const found = run.violations.splice(0);
  if (found.length === 0) return;
  const shown = found.slice(0, 10).join('\n  ');
  throw new Error(`${found.length} gateway answer(s) ${when} depart from the OpenAPI document:\n  ${shown}`);
}

// Registered by importing this module (the stack helpers do), so every test that starts a gateway is covered.
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
    if (file && run.answers > 0) {
      const { testPath } = expect.getState();
      appendFileSync(
        file,
        `${JSON.stringify({ file: testPath, answers: run.answers, tests: run.testsWithAnswers })}\n`,
      );
    }
    failOnViolations('outside the tests');
  });
}
