import type Joi from 'joi';

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1) as a plain object. */
export type JsonSchema = Record<string, unknown>;

interface Described {
  type?: string;
  flags?: Record<string, unknown>;
  keys?: Record<string, Described>;
  patterns?: unknown[];
  items?: Described[];
  rules?: { name: string; args?: Record<string, unknown> }[];
  allow?: unknown[];
  matches?: { schema?: Described; then?: Described; otherwise?: Described }[];
  whens?: When[];
  examples?: unknown[];
}

interface When {
  then?: Described;
  otherwise?: Described;
  switch?: { then?: Described; otherwise?: Described }[];
}

/**
 * Converts a joi schema to JSON Schema through `schema.describe()`. Custom rules (phone, time zone) cannot be
 * expressed and are left to the description; `when` branches become `anyOf` of the branches that allow a value.
 */
export function joiToJsonSchema(schema: Joi.Schema): JsonSchema {
  return convert(schema.describe() as Described);
}

function convert(d: Described): JsonSchema {
  const out = base(d);
  const flags = d.flags ?? {};
  if (typeof flags.description === 'string') out.description = flags.description;
  if (flags.default !== undefined && typeof flags.default !== 'function') out.default = flags.default;
  if (d.examples?.length) out.examples = d.examples;
  const allowed = (d.allow ?? []).filter((v) => !(typeof v === 'object' && v !== null));
  if (flags.only === true && allowed.length > 0) {
    if (flags.insensitive !== true) return { ...withoutType(out), enum: allowed };
    // Any case is accepted: a pattern with a class per letter says so exactly; examples show the spelling.
    const alternatives = allowed.map((v) => anyCase(String(v))).join('|');
    return { ...withoutType(out), type: 'string', pattern: `^(${alternatives})$`, examples: allowed };
  }
  if (allowed.includes(null)) {
    const type = out.type;
    if (typeof type === 'string') out.type = [type, 'null'];
    else if (type === undefined && out.anyOf === undefined) return out;
    else out.anyOf = [...((out.anyOf as JsonSchema[] | undefined) ?? [withoutType(out)]), { type: 'null' }];
  }
  return out;
}

function withoutType(schema: JsonSchema): JsonSchema {
  const { type: _type, ...rest } = schema;
  void _type;
  return rest;
}

function base(d: Described): JsonSchema {
  switch (d.type ?? 'any') {
    case 'string':
      return stringSchema(d);
    case 'number':
      return numberSchema(d);
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date-time' };
    case 'array':
      return arraySchema(d);
    case 'object':
      return objectSchema(d);
    case 'alternatives':
      return { anyOf: (d.matches ?? []).flatMap((m) => branches(m)) };
    default:
      return d.whens ? whenSchema(d.whens) : {};
  }
}

function stringSchema(d: Described): JsonSchema {
  const out: JsonSchema = { type: 'string' };
  for (const rule of d.rules ?? []) {
    const args = rule.args ?? {};
    if (rule.name === 'max') out.maxLength = args.limit;
    if (rule.name === 'min') out.minLength = args.limit;
    if (rule.name === 'length') out.minLength = out.maxLength = args.limit;
    if (rule.name === 'isoDate') out.format = 'date-time';
    if (rule.name === 'uri') out.format = 'uri';
    if (rule.name === 'email') out.format = 'email';
    if (rule.name === 'pattern' && args.options === undefined && typeof args.regex === 'string') {
      addPattern(out, args.regex);
    } else if (rule.name === 'pattern' && typeof args.regex === 'string') {
      const invert = (args.options as { invert?: boolean }).invert === true;
      if (!invert) addPattern(out, args.regex);
    }
  }
  return out;
}

function addPattern(out: JsonSchema, literal: string): void {
  const match = /^\/(.*)\/([a-z]*)$/s.exec(literal);
  // JSON Schema patterns carry no flags: a case-insensitive pattern is left to the description.
  if (match && match[2] === '') out.pattern = match[1];
}

function numberSchema(d: Described): JsonSchema {
  const out: JsonSchema = { type: 'number' };
  for (const rule of d.rules ?? []) {
    const limit = rule.args?.limit;
    if (rule.name === 'integer') out.type = 'integer';
    if (rule.name === 'min') out.minimum = limit;
    if (rule.name === 'max') out.maximum = limit;
    if (rule.name === 'greater') out.exclusiveMinimum = limit;
    if (rule.name === 'less') out.exclusiveMaximum = limit;
  }
  return out;
}

function arraySchema(d: Described): JsonSchema {
  const out: JsonSchema = { type: 'array' };
  const items = d.items ?? [];
  if (items.length === 1) out.items = convert(items[0]);
  else if (items.length > 1) out.items = { anyOf: items.map(convert) };
  for (const rule of d.rules ?? []) {
    const limit = rule.args?.limit;
    if (rule.name === 'max') out.maxItems = limit;
    if (rule.name === 'min') out.minItems = limit;
    if (rule.name === 'length') out.minItems = out.maxItems = limit;
    if (rule.name === 'unique' && rule.args?.comparator === undefined) out.uniqueItems = true;
  }
  return out;
}

function objectSchema(d: Described): JsonSchema {
  const out: JsonSchema = { type: 'object' };
  if (d.keys === undefined || d.patterns !== undefined) return out;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, child] of Object.entries(d.keys)) {
    if (child.flags?.presence === 'forbidden') continue;
    properties[name] = convert(child);
    if (child.flags?.presence === 'required') required.push(name);
  }
  out.properties = properties;
  if (required.length > 0) out.required = required;
  if (d.flags?.unknown !== true) out.additionalProperties = false;
  return out;
}

function branches(m: { schema?: Described; then?: Described; otherwise?: Described }): JsonSchema[] {
  return [m.schema, m.then, m.otherwise]
    .filter((s): s is Described => s !== undefined && s.flags?.presence !== 'forbidden')
    .map(convert);
}

function whenSchema(whens: When[]): JsonSchema {
  const all = whens.flatMap((w) => [
    ...branches({ then: w.then, otherwise: w.otherwise }),
    ...(w.switch ?? []).flatMap((s) => branches(s)),
  ]);
  // Branches that allow the same values (a header's and a footer's text) are one option.
  const options = [...new Map(all.map((o) => [JSON.stringify(o), o])).values()];
  if (options.length === 0) return {};
  return options.length === 1 ? options[0] : { anyOf: options };
}

function anyCase(value: string): string {
  return [...value]
    .map((c) => (c.toLowerCase() !== c.toUpperCase() ? `[${c.toLowerCase()}${c.toUpperCase()}]` : escape(c)))
    .join('');
}

function escape(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
