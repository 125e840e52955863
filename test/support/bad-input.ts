import { createHmac } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { ERROR_CODES } from '@bm/contracts';
import type { RawRequest, RawResponse } from './raw-http';

/** What the bad-input suite needs to build requests: credentials and ids that exist. */
export interface Fixtures {
  auth: string;
  otherTenantAuth: string;
  revokedAuth: string;
  adminAuth: string;
  tenantId: number;
  channelAccountId: string;
  /** The upstream ids of the tenant's number, for inbound webhook bodies that reach it. */
  phoneNumberId: string;
  wabaId: string;
  appSecret: string;
  /** Real ids per path parameter name, so some cases reach a resource and its deeper checks. */
  ids: Record<string, string[]>;
}

export interface Endpoint {
  method: string;
  /** Express syntax: `:id` parameters are filled with generated ids. */
  path: string;
  kind: 'tenant' | 'admin' | 'upstream';
  /** A body the endpoint accepts, mutated into bad ones; absent for body-less endpoints. */
  valid?: () => Record<string, unknown>;
}

/** Percent-encodes the UTF-8 bytes of any string (lone surrogates become U+FFFD), leaving unreserved ASCII. */
export function enc(s: string): string {
  return [...Buffer.from(s, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16)}`,
    )
    .join('');
}

// Requests stay under Node's 16 KB limit on the request line and headers: past it Node itself answers 431
// before any application code runs (see the last test of the suite).
// A header value a client can put on the wire: visible ASCII, space and obs-text (latin1).
const headerChar = fc
  .integer({ min: 0x20, max: 0xff })
  .filter((c) => c !== 0x7f)
  .map((c) => String.fromCharCode(c));
const headerValue = fc.oneof(
  fc.string({ unit: headerChar, maxLength: 60 }),
  fc.nat(1000).map((n) => 'h'.repeat(n)),
);
/** A character PostgreSQL text and jsonb cannot hold: NUL, or an unpaired UTF-16 surrogate. */
const unstorableChar = fc.oneof(
  fc.constant('\u0000'),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
);
/** Any text: code points of every plane and, one time in three, NUL or an unpaired surrogate somewhere in it. */
const anyText = fc.oneof(
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.string({ unit: 'binary', maxLength: 20 }),
        unstorableChar,
        fc.string({ unit: 'binary', maxLength: 20 }),
      )
      .map(([before, bad, after]) => `${before}${bad}${after}`),
  },
);
const huge = fc.integer({ min: 1_000, max: 120_000 }).map((n) => 'x'.repeat(n));
const nested = (depth: number, leaf: unknown): unknown => {
  let v = leaf;
  for (let i = 0; i < depth; i += 1) v = i % 2 === 0 ? [v] : { a: v };
  return v;
};

/** A value of the wrong kind for almost any field. */
const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  anyText,
  fc.constantFrom(
    '',
    ' ',
    'a\u0000b',
    'a\ud800b',
    '\udfff',
    '\u202e',
    '💬'.repeat(50),
    '__proto__',
    '-1',
    '1e400',
    'NaN',
  ),
  huge,
  fc.jsonValue({ maxDepth: 2 }),
  fc.integer({ min: 50, max: 3_000 }).map((d) => nested(d, 'x')),
  fc
    .constant({ __proto__: { admin: true } })
    .map(() => JSON.parse('{"__proto__":{"admin":true}}') as unknown),
);

const idValue = (real: string[]) =>
  fc.oneof(
    { weight: 2, arbitrary: real.length > 0 ? fc.constantFrom(...real) : fc.constant('1') },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        '0',
        '-1',
        '1.5',
        '1e3',
        '2147483648',
        '99999999999999999999',
        'null',
        '%00',
        '%ff',
        '%E0%A4%A',
        '%',
        '..',
        '..%2F..%2Fadmin%2Fv1%2Ftenants',
        '%2e%2e%2f%2e%2e',
        'a%2Fb',
        '%252e%252e',
        '%5C..%5C',
        '01ARZ3NDEKTSV4RRFFQ69G5FAV',
        '01arz3ndektsv4rrffq69g5fav',
        '%2B14155550100',
        '(415)%20555-0100',
      ),
    },
    { weight: 3, arbitrary: anyText.map(enc) },
    {
      weight: 1,
      arbitrary: fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }).map(String),
    },
    { weight: 1, arbitrary: fc.integer({ min: 100, max: 2_000 }).map((n) => '9'.repeat(n)) },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.constantFrom('..', '.', '%2e%2e', '%2F', '%5C', '', 'admin', 'v1'), { maxLength: 8 })
        .map((parts) => parts.join('/')),
    },
  );

const QUERY_KEYS = [
  'page',
  'per_page',
  'status',
  'to_phone',
  'campaign_id',
  'event',
  'channel_account_id',
  'dry_run',
  'hub.mode',
  'hub.verify_token',
  'hub.challenge',
  '__proto__',
  'page[]',
];
const query = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom(...QUERY_KEYS), anyText.map(enc)),
      fc.oneof(
        anyText.map(enc),
        fc.constantFrom('%ff', '%', '-1', '0', '1e9', 'NaN', '99999999999999999999', 'subscribe', 'FAILED'),
        fc.integer().map(String),
        fc.nat(500).map((n) => 'q'.repeat(n)),
      ),
    ),
    { maxLength: 5 },
  )
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`));

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/json; charset=bogus',
  'application/vnd.api+json',
  'application/xml',
  '*/*',
  'json',
  '',
];

type Path = Array<string | number>;

/** The paths of every string value and every object key of a JSON value (a key's path ends with its name). */
function stringPaths(value: unknown, path: Path = []): Array<{ path: Path; key: boolean }> {
  if (typeof value === 'string') return [{ path, key: false }];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringPaths(v, [...path, i]));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => [
      { path: [...path, k], key: true },
      ...stringPaths(v, [...path, k]),
    ]);
  }
  return [];
}

/** A deep copy of the valid body with one of its strings (a value or a key, at any depth) holding `bad` at `at`. */
function poisoned(
  valid: Record<string, unknown>,
  target: { path: Path; key: boolean },
  bad: string,
  at: number,
) {
  const body = JSON.parse(JSON.stringify(valid)) as Record<string, unknown>;
  const insert = (text: string) =>
    `${text.slice(0, at % (text.length + 1))}${bad}${text.slice(at % (text.length + 1))}`;
  let parent: Record<string | number, unknown> = body;
  for (const part of target.path.slice(0, -1)) parent = parent[part] as Record<string | number, unknown>;
  const last = target.path[target.path.length - 1];
  if (target.key) {
    const entries = Object.entries(parent).map(([k, v]) => [k === last ? insert(k) : k, v] as const);
    for (const k of Object.keys(parent)) delete parent[k];
    for (const [k, v] of entries) parent[k] = v;
  } else parent[last] = insert(parent[last] as string);
  return body;
}

/**
 * The valid body with one field deleted, replaced by a value of the wrong kind, or one field added; or with NUL
 * or an unpaired surrogate put into one of its strings, values and keys alike, at any depth.
 */
function mutated(valid: Record<string, unknown>): fc.Arbitrary<unknown> {
  const strings = stringPaths(valid);
  const poison = fc
    .tuple(fc.constantFrom(...strings), unstorableChar, fc.nat())
    .map(([target, bad, at]) => poisoned(valid, target, bad, at));
  return fc.oneof({ weight: 3, arbitrary: shallowMutated(valid) }, { weight: 1, arbitrary: poison });
}

function shallowMutated(valid: Record<string, unknown>): fc.Arbitrary<unknown> {
  const keys = Object.keys(valid);
  return fc
    .tuple(
      fc.nat(keys.length - 1),
      fc.constantFrom('delete', 'replace', 'add', 'nested'),
      weirdValue,
      anyText,
    )
    .map(([i, op, value, name]) => {
      const body: Record<string, unknown> = { ...valid };
      const key = keys[i];
      if (op === 'delete') delete body[key];
      else if (op === 'replace') body[key] = value;
      else if (op === 'add') body[name] = value;
      else body[key] = { [name]: value };
      return body;
    });
}

/** Bytes that are not valid UTF-8, placed inside a JSON string of an otherwise valid body. */
const INVALID_UTF8 = [
  [0xff],
  [0xfe, 0xff],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xe2, 0x82],
  [0xf8, 0x88, 0x80, 0x80],
];

function bodies(valid: Record<string, unknown>): fc.Arbitrary<Buffer> {
  const text = JSON.stringify(valid);
  return fc.oneof(
    { weight: 6, arbitrary: mutated(valid).map((b) => Buffer.from(JSON.stringify(b))) },
    {
      weight: 2,
      arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => Buffer.from(JSON.stringify(v) ?? 'null')),
    },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 1_000, max: 200_000 })
        .map((d) => Buffer.from('['.repeat(d) + ']'.repeat(d))),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom(...INVALID_UTF8), fc.nat()).map(([bytes, at]) => {
        const quote = text.indexOf('"', at % text.length);
        const cut = quote < 0 ? 1 : quote + 1;
        return Buffer.concat([
          Buffer.from(text.slice(0, cut)),
          Buffer.from(bytes),
          Buffer.from(text.slice(cut)),
        ]);
      }),
    },
    { weight: 1, arbitrary: fc.nat(text.length - 1).map((n) => Buffer.from(text.slice(0, n))) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('', 'null', '[]', '"x"', '1', '{}', '{"a":1,"a":2}')
        .map((s) => Buffer.from(s)),
    },
  );
}

const GENERIC_BODY = { name: 'x', phone: '14155550100', url: 'http://127.0.0.1:9/hook' };

/** Every kind of bad request for one endpoint. */
export function badRequests(endpoint: Endpoint, fx: Fixtures): fc.Arbitrary<RawRequest> {
  const params = [...endpoint.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
  const path = fc.tuple(...params.map((p) => idValue(fx.ids[p] ?? [])), query).map((parts) => {
    const q = parts.pop()!;
    let i = 0;
    return endpoint.path.replace(/:\w+/g, () => parts[i++]) + q;
  });
  const goodAuth = { tenant: fx.auth, admin: fx.adminAuth, upstream: undefined }[endpoint.kind];
  const auth = fc.oneof(
    { weight: 8, arbitrary: fc.constant(goodAuth) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        undefined,
        'Bearer',
        'Basic dXNlcjpwYXNz',
        fx.otherTenantAuth,
        fx.revokedAuth,
        fx.adminAuth,
        `${fx.auth}x`,
        `${fx.auth} ${fx.auth}`,
        `Bearer ${'k'.repeat(1000)}`,
      ),
    },
  );
  const oddHeaders = fc.record(
    {
      'x-tenant-id': fc.oneof(fc.constant(String(fx.tenantId)), headerValue),
      'idempotency-key': headerValue,
      'x-request-id': headerValue,
      traceparent: fc.oneof(headerValue, fc.constant('00-' + '0'.repeat(32) + '-' + '0'.repeat(16) + '-01')),
      'x-internal-token': headerValue,
      'x-bm-tenant-id': fc.constantFrom('1', '2', '-1', 'abc'),
      'x-hub-signature-256': fc.oneof(
        headerValue,
        fc.constantFrom('sha256=', 'sha1=abc', `sha256=${'0'.repeat(64)}`, `sha256=${'g'.repeat(64)}`),
      ),
      'content-encoding': fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'bogus'),
    },
    { requiredKeys: [] },
  );
  const extraHeaders = fc.oneof(
    { weight: 3, arbitrary: fc.constant({}) },
    { weight: 1, arbitrary: oddHeaders },
  );
  const contentType = fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/json') },
    { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
  );
  const body = endpoint.valid
    ? bodies(endpoint.valid())
    : fc.oneof(
        { weight: 4, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: bodies(GENERIC_BODY) },
      );
  const gzipped = fc.boolean();
  const signed = fc.boolean();
  return fc
    .tuple(path, auth, extraHeaders, contentType, body, gzipped, signed)
    .map(([p, a, extra, ct, b, gz, sign]) => {
      const headers: Record<string, string> = { ...extra };
      if (a !== undefined) headers.authorization = a;
      let payload = b;
      if (payload !== undefined) {
        if (ct !== '') headers['content-type'] = ct;
        // A body that really is gzip, when the generated header says so half the time.
        if (headers['content-encoding'] === 'gzip' && gz) payload = gzipSync(payload);
        // Half the upstream's bodies are signed with the real app secret, so what follows the check is fuzzed too.
        if (endpoint.kind === 'upstream' && sign) {
          const hex = createHmac('sha256', fx.appSecret).update(payload).digest('hex');
          headers['x-hub-signature-256'] = `sha256=${hex}`;
        }
      }
      return { method: endpoint.method, path: p, headers, body: payload };
    });
}

/** What is wrong with an answer (undefined when it is a documented envelope answer). */
export function envelopeProblem(req: RawRequest, res: RawResponse): string | undefined {
  if (res.status >= 500) return `status ${res.status}`;
  if (res.headers['x-request-id'] === undefined) return 'no X-Request-Id';
  const type = String(res.headers['content-type'] ?? '');
  // The one exception of CONTRACT.md: the upstream's verification GET echoes hub.challenge as text/plain.
  if (req.method === 'GET' && req.path.startsWith('/api/webhooks/channel') && res.status === 200) {
    return type.startsWith('text/plain') ? undefined : `verification answered ${type}`;
  }
  // The CSV downloads (GET …/export) answer their file on success, an envelope otherwise.
  if (req.method === 'GET' && req.path.split('?')[0].endsWith('/export') && res.status === 200) {
    return type.startsWith('text/csv') ? undefined : `export answered ${type}`;
  }
  if (!type.startsWith('application/json')) return `content-type ${type}`;
  let body: { success?: unknown; data?: unknown; error?: { code?: unknown; message?: unknown } };
  try {
    body = JSON.parse(res.body.toString('utf8')) as typeof body;
  } catch {
    return 'body is not JSON';
  }
  if (body.success === true) return res.status < 300 && 'data' in body ? undefined : 'bad success envelope';
  if (body.success !== false || typeof body.error?.message !== 'string') return 'not an error envelope';
  const code = body.error.code;
  if (typeof code !== 'string' || !(code in ERROR_CODES)) return `undocumented code ${String(code)}`;
  const expected = ERROR_CODES[code as keyof typeof ERROR_CODES].status;
  return expected === res.status ? undefined : `${code} with status ${res.status} (documented ${expected})`;
}

/** Runs requests with a fixed number in flight. */
export async function runPool<T>(
  items: T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}
