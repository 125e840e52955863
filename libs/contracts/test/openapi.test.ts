import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildOpenApiDocument,
  ERROR_CODES,
  FORWARDED_ADMIN_ROUTES,
  joiToJsonSchema,
  openApiPath,
  PUBLIC_ROUTES,
  sendMessageSchema,
  UPSTREAM_WEBHOOK_ROUTES,
  WEBHOOK_EVENTS,
} from '@bm/contracts';

interface Doc {
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
  webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: Schema }> } } }>;
  components: { schemas: Record<string, Schema> };
}
interface Schema {
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
}

// The validator is an ES module: it runs as its own CLI, the same check a CI linter would make.
const VALIDATOR_CLI = join(
  __dirname,
  '../../../node_modules/@seriousme/openapi-schema-validator/bin/validate-api-cli.js',
);

describe('the OpenAPI document', () => {
  const doc = buildOpenApiDocument() as unknown as Doc;

  it('when validated against the OpenAPI 3.1 schema, then it is valid', () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      const out = execFileSync(process.execPath, [VALIDATOR_CLI, file], { encoding: 'utf8' });
      expect(out).toMatch(/"valid":\s*true/);
    } catch (error) {
      throw new Error(
        `OpenAPI validation failed: ${(error as { stdout?: string }).stdout ?? String(error)}`,
        {
          cause: error,
        },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when listing the route tables, then every route appears with its method and operation id', () => {
    for (const route of [...PUBLIC_ROUTES, ...UPSTREAM_WEBHOOK_ROUTES, ...FORWARDED_ADMIN_ROUTES]) {
      const operation = doc.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
      expect({ route: route.operationId, found: operation?.operationId }).toEqual({
        route: route.operationId,
        found: route.operationId,
      });
    }
    expect(doc.paths['/api/health']?.get).toBeDefined();
    expect(Object.keys(doc.paths['/admin/v1/tenants/{tenantId}'] ?? {}).sort()).toEqual(['get', 'patch']);
  });

  it('when reading the error envelope, then its code enum is exactly the keys of ERROR_CODES', () => {
    const code = doc.components.schemas.ErrorEnvelope.properties?.error.properties?.code;
    expect(code?.enum).toEqual(Object.keys(ERROR_CODES));
  });

  it('when reading the webhooks section, then every event has its body with the common fields', () => {
    expect(Object.keys(doc.webhooks)).toEqual([...WEBHOOK_EVENTS]);
    for (const event of WEBHOOK_EVENTS) {
      const schema = doc.webhooks[event].post.requestBody.content['application/json'].schema;
      expect(schema.properties?.event.const).toBe(event);
      expect(schema.required).toEqual(expect.arrayContaining(['event', 'tenant_id', 'timestamp']));
    }
  });

  it('when an operation may answer 503 SERVICE_UNAVAILABLE, then that answer declares Retry-After', () => {
    const answers = Object.values(doc.paths).flatMap((operations) =>
      Object.values(operations).map(
        (op) => op.responses['503'] as { description: string; headers?: Record<string, unknown> } | undefined,
      ),
    );
    const unavailable = answers.filter((r) => r?.description.includes('SERVICE_UNAVAILABLE'));
    expect(unavailable.length).toBeGreaterThan(10);
    for (const answer of unavailable)
      expect(answer!.headers).toHaveProperty('Retry-After', { $ref: '#/components/headers/Retry-After' });
  });

  it('when converting the send schema, then required fields and enums come from joi', () => {
    const schema = joiToJsonSchema(sendMessageSchema) as Schema;
    expect(schema.required).toEqual(expect.arrayContaining(['channel_account_id', 'message_type', 'data']));
    // The customer by exactly one of phone and user id (the 2026 network): neither is required alone.
    expect(Object.keys(schema.properties ?? {})).toEqual(expect.arrayContaining(['phone', 'user_id']));
    expect(schema.properties?.message_type.enum).toEqual(['text', 'template']);
  });
});
