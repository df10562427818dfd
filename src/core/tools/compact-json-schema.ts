import { isPlainObject } from '../plain-object';

/**
 * Drops what zod's JSON Schema output spends tokens on but tells the model nothing: `$schema`,
 * `minLength: 1` (an empty string is refused by validation anyway), the ±Number.MAX_SAFE_INTEGER
 * bounds zod puts on every int, and the `propertyNames`/empty `additionalProperties` of free-form
 * records. Validation still runs against the zod schema, so no call is accepted that was refused
 * before. Works on keywords, never on property names: a parameter called `maximum` survives.
 */
export function compactJsonSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (isNoise(key, value)) continue;
    if (SCHEMA_MAPS.has(key) && isPlainObject(value)) out[key] = mapValues(value, compactNode);
    else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) out[key] = value.map(compactNode);
    else if (SUBSCHEMAS.has(key)) out[key] = compactNode(value);
    else out[key] = value;
  }
  return out;
}

/** Keywords whose value is a map from names to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions']);
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
/** Keywords whose value is one schema. */
const SUBSCHEMAS = new Set(['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains']);

function isNoise(key: string, value: unknown): boolean {
  switch (key) {
    case '$schema':
    case 'propertyNames':
      return true;
    case 'minLength':
      return value === 1;
    case 'maximum':
    case 'minimum':
      return value === Number.MAX_SAFE_INTEGER || value === -Number.MAX_SAFE_INTEGER;
    case 'additionalProperties':
      // `{}` allows anything, which is what an absent keyword means too.
      return isPlainObject(value) && Object.keys(value).length === 0;
    default:
      return false;
  }
}

function compactNode(node: unknown): unknown {
  return isPlainObject(node) ? compactJsonSchema(node) : node;
}

function mapValues(record: Record<string, unknown>, fn: (value: unknown) => unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, fn(v)]));
}
