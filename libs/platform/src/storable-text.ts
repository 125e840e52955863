/*
 * PostgreSQL text and jsonb cannot hold a NUL character (`\u0000` in JSON) nor an unpaired UTF-16 surrogate
 * (`\ud800` alone in JSON: no Unicode character at all, yet JSON.parse gives it). A statement carrying one fails
 * ("unsupported Unicode escape sequence", "invalid input syntax for type json"), and fails the same way however
 * often it is tried. Public requests refuse such text (see validate); what the upstream sends is made storable.
 */
// eslint-disable-next-line no-control-regex -- NUL is one of the characters looked for
const UNSTORABLE = /[\u0000\uD800-\uDFFF]/u;
// eslint-disable-next-line no-control-regex -- as above
const UNSTORABLE_ALL = /[\u0000\uD800-\uDFFF]/gu;

/** Whether a string can be stored in PostgreSQL text or jsonb (no NUL, no unpaired surrogate). */
export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/** The string with every NUL and unpaired surrogate replaced by U+FFFD (paired surrogates are kept). */
export function storableText(text: string): string {
  return UNSTORABLE.test(text) ? text.replace(UNSTORABLE_ALL, '\uFFFD') : text;
}

/**
 * A JSON value (as JSON.parse gives it) with every string and object key made storable; the value itself when it
 * holds nothing to replace. Without recursion, so a deeply nested body costs no stack.
 */
export function storableJson<T>(value: T): { value: T; replaced: number } {
  let replaced = 0;
  const fix = (v: unknown): unknown => {
    if (typeof v !== 'string' || isStorableText(v)) return v;
    replaced += 1;
    return storableText(v);
  };
  const root = { v: fix(value) };
  const stack: Array<Record<string, unknown> | unknown[]> = [];
  if (typeof root.v === 'object' && root.v !== null) stack.push(root.v as Record<string, unknown>);
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i += 1) {
        node[i] = fix(node[i]);
        if (typeof node[i] === 'object' && node[i] !== null) stack.push(node[i] as Record<string, unknown>);
      }
      continue;
    }
    for (const key of Object.keys(node)) {
      let item = fix(node[key]);
      if (!isStorableText(key)) {
        replaced += 1;
        delete node[key];
        // Two keys that differ only in unstorable characters: the first one read keeps the name.
        const fixed = storableText(key);
        if (!Object.prototype.hasOwnProperty.call(node, fixed)) {
          Object.defineProperty(node, fixed, {
            value: item,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        item = node[fixed];
      } else if (item !== node[key]) node[key] = item;
      if (typeof item === 'object' && item !== null) stack.push(item as Record<string, unknown>);
    }
  }
  return { value: root.v as T, replaced };
}
