import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Every service with a domain: it declares ports, data access implements them, and this test keeps it that way. */
const PURE_DOMAINS = ['messaging', 'campaign', 'webhook-ingress', 'webhook-dispatcher', 'gateway'];

const INFRASTRUCTURE = new Set(['typeorm', 'ioredis', 'amqplib']);
// Uppercase, as the repositories write SQL; English prose in a log line or an error does not match.
const SQL =
  /\b(SELECT\s[\s\S]*\bFROM|INSERT\s+INTO|UPDATE\s+\S+\s+(\w+\s+)?SET|DELETE\s+FROM|SAVEPOINT|FOR\s+UPDATE)\b/;

const root = path.resolve(__dirname, '../..');

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** What a domain file must not do: import an infrastructure client or the data-access layer, or carry SQL in a string. */
function impurities(file: string, text = readFileSync(file, 'utf8')): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      (INFRASTRUCTURE.has(node.moduleSpecifier.text) ||
        /(^|\/)data-access(\/|$)/.test(node.moduleSpecifier.text))
    ) {
      found.push(`imports ${node.moduleSpecifier.text}`);
      return;
    }
    if (
      (ts.isStringLiteral(node) ||
        ts.isNoSubstitutionTemplateLiteral(node) ||
        ts.isTemplateHead(node) ||
        ts.isTemplateMiddle(node) ||
        ts.isTemplateTail(node)) &&
      SQL.test(node.text)
    ) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart());
      found.push(`SQL at line ${line + 1}: ${node.text.trim().slice(0, 60)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.map((f) => `${path.relative(root, file)}: ${f}`);
}

describe('domain purity', () => {
  it.each(PURE_DOMAINS)(
    'when the %s domain is read, then no file imports typeorm, ioredis, amqplib or the data-access layer, or holds SQL',
    (service) => {
      const files = sourcesUnder(path.join(root, 'services', service, 'src', 'domain'));

      const found = files.flatMap((file) => impurities(file));

      expect(files.length).toBeGreaterThan(0);
      expect(found).toEqual([]);
    },
  );

  it('when a file imports typeorm or writes SQL, then the check names both; prose is not SQL', () => {
    const file = path.join(root, 'services', 'example', 'src', 'domain', 'example.ts');
    const text = [
      "import type { EntityManager } from 'typeorm';",
      'const q = `UPDATE messaging.message_logs m SET status = ${1}`;',
      "const note = 'the customer may select a reply from the list';",
    ].join('\n');

    const found = impurities(file, text);

    expect(found).toEqual([
      'services/example/src/domain/example.ts: imports typeorm',
      'services/example/src/domain/example.ts: SQL at line 2: UPDATE messaging.message_logs m SET status =',
    ]);
  });
});
