// An MCP tool's inputSchema as the model provider gets it. A server's raw schema can make every
// later request fail with a 400 once the tool is discovered (a `$schema` key some providers
// refuse, a root that is not a plain object schema, `$ref`s into definitions that are missing or
// remote, a schema of many kilobytes), so it is cleaned first: `$schema`/`$id`/anchors dropped, the
// root made `type: object` with `properties`, refs inlined (recursive ones kept, with exactly the
// definitions they need), and a schema still over the size cap replaced by a loose object schema
// whose description points to search_tools detail "full". The server validates the arguments.
import { mcpText } from './mcp-texts';
import { isPlainObject } from '../plain-object';

/** Serialised size past which a schema is not sent with every request. */
export const MAX_SCHEMA_CHARS = 8_000;
/** Refs inlined per schema before the rest are kept as refs (a deep web of definitions must not explode). */
const MAX_INLINED_REFS = 500;

type Schema = Record<string, unknown>;

export interface ModelSchema {
  /** What the provider gets. */
  parameters: Schema;
  /** The cleaned schema in full, when `parameters` is the loose stand-in (search_tools detail "full" shows it). */
  full?: Schema;
}

/** Keys whose value is one schema, a map of schemas by name, or a list of schemas. */
const ONE = new Set(['items', 'additionalItems', 'additionalProperties', 'unevaluatedItems', 'unevaluatedProperties', 'contains', 'propertyNames', 'not', 'if', 'then', 'else']);
const MAP = new Set(['properties', 'patternProperties', 'dependentSchemas']);
const LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** Keywords that mean nothing once refs are inlined, or that providers refuse. */
const DROPPED = new Set(['$schema', '$id', '$anchor', '$dynamicAnchor', '$dynamicRef', '$recursiveAnchor', '$recursiveRef', '$comment', '$vocabulary']);
/** What a root that must be a plain object schema cannot carry (after its branches were merged). */
const ROOT_ONLY_NOT = ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'enum', 'const'];
const DEFINITIONS = ['$defs', 'definitions'] as const;

export function modelSchema(input: unknown, maxChars = MAX_SCHEMA_CHARS): ModelSchema {
  const clean = sanitizeSchema(input);
  const size = JSON.stringify(clean).length;
  if (size <= maxChars) return { parameters: clean };
  return { parameters: looseSchema(clean, size, maxChars), full: clean };
}

/** The schema cleaned as described above, never over any size cap; key order is kept. */
export function sanitizeSchema(input: unknown): Schema {
  const root: Schema = isPlainObject(input) ? input : {};
  const refs = new RefInliner(root);
  const body = refs.walk(Object.fromEntries(Object.entries(root).filter(([k]) => !(DEFINITIONS as readonly string[]).includes(k))), []);
  const shaped = objectRoot(isPlainObject(body) ? body : {});
  return { ...shaped, ...refs.keptDefinitions() };
}

class RefInliner {
  /** `#/$defs/<name>` (or `#/definitions/<name>`) kept as refs: recursive, or past the inline budget. */
  private readonly kept = new Map<string, Schema | undefined>();
  private inlined = 0;

  constructor(private readonly root: Schema) {}

  walk(node: unknown, stack: readonly string[]): unknown {
    if (node === true) return {};
    if (!isPlainObject(node)) return node;
    if (typeof node.$ref === 'string') return this.ref(node, node.$ref, stack);
    const out: Schema = {};
    for (const [key, value] of Object.entries(node)) {
      if (DROPPED.has(key)) continue;
      if (ONE.has(key)) out[key] = Array.isArray(value) ? value.map((v) => this.walk(v, stack)) : this.walk(value, stack);
      else if (LIST.has(key) && Array.isArray(value)) out[key] = value.map((v) => this.walk(v, stack));
      else if (MAP.has(key) && isPlainObject(value)) out[key] = this.walkMap(value, stack, key === 'properties');
      else if (key === 'dependencies' && isPlainObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, Array.isArray(v) ? v : this.walk(v, stack)]));
      else if ((DEFINITIONS as readonly string[]).includes(key)) continue; // nested definitions: reached through refs only
      else out[key] = value;
    }
    return out;
  }

  /** The kept definitions, each cleaned (which may keep more), under the key their refs name. */
  keptDefinitions(): Schema {
    for (let pending = this.pendingRefs(); pending.length > 0; pending = this.pendingRefs()) {
      for (const ref of pending) this.kept.set(ref, this.walk(pointer(this.root, ref), [ref]) as Schema);
    }
    const out: Record<string, Schema> = {};
    for (const [ref, schema] of this.kept) {
      const [container, name] = definitionOf(ref)!;
      (out[container] ??= {})[name] = schema ?? {};
    }
    return out;
  }

  private walkMap(map: Schema, stack: readonly string[], properties: boolean): Schema {
    const out: Schema = {};
    for (const [name, schema] of Object.entries(map)) {
      if (properties && schema === false) continue; // a property that may never be given
      out[name] = this.walk(schema, stack);
    }
    return out;
  }

  private ref(node: Schema, ref: string, stack: readonly string[]): unknown {
    const { $ref: _ref, ...rest } = node;
    const siblings = this.walk(rest, stack) as Schema;
    if (ref === '#') return { $ref: '#', ...siblings }; // the root stays the root
    const target = ref.startsWith('#/') ? pointer(this.root, ref) : undefined;
    // A remote or dangling ref cannot be followed by the provider: any value will do.
    if (target === undefined) return siblings;
    const recursive = stack.includes(ref);
    if (recursive || this.inlined >= MAX_INLINED_REFS) {
      if (!definitionOf(ref)) return siblings; // only refs into the definitions survive as refs
      if (!this.kept.has(ref)) this.kept.set(ref, undefined);
      return { $ref: ref, ...siblings };
    }
    this.inlined++;
    const resolved = this.walk(target, [...stack, ref]);
    return isPlainObject(resolved) ? { ...resolved, ...siblings } : siblings;
  }

  private pendingRefs(): string[] {
    return [...this.kept].filter(([, schema]) => schema === undefined).map(([ref]) => ref);
  }
}

/** A root every provider takes: `type: "object"` with `properties`, combinators merged away. */
function objectRoot(schema: Schema): Schema {
  const out: Schema = { ...schema, type: 'object' };
  const branches = [...asList(schema.allOf), ...asList(schema.anyOf), ...asList(schema.oneOf)].filter(isPlainObject);
  const properties: Schema = isPlainObject(schema.properties) ? { ...schema.properties } : {};
  for (const branch of branches) if (isPlainObject(branch.properties)) for (const [k, v] of Object.entries(branch.properties)) properties[k] ??= v;
  out.properties = properties;
  // Required: the root's own, those of allOf (each applies), and those every anyOf/oneOf branch shares.
  const required = new Set(strings(schema.required));
  for (const branch of asList(schema.allOf).filter(isPlainObject)) for (const name of strings(branch.required)) required.add(name);
  for (const list of [asList(schema.anyOf).filter(isPlainObject), asList(schema.oneOf).filter(isPlainObject)]) {
    if (list.length === 0) continue;
    for (const name of strings(list[0]!.required)) if (list.every((b) => strings(b.required).includes(name))) required.add(name);
  }
  for (const key of ROOT_ONLY_NOT) delete out[key];
  if (required.size > 0) out.required = [...required];
  else delete out.required;
  return out;
}

/** The stand-in for a schema too large to send: the top-level parameter names and types if they fit, else none. */
function looseSchema(clean: Schema, size: number, maxChars: number): Schema {
  const description = mcpText('schema_too_large', { SIZE: size.toLocaleString('en-US') });
  const properties = isPlainObject(clean.properties) ? clean.properties : {};
  const outline: Schema = {};
  for (const [name, schema] of Object.entries(properties)) outline[name] = isPlainObject(schema) && typeof schema.type === 'string' ? { type: schema.type } : {};
  const required = strings(clean.required).filter((name) => name in outline);
  const withNames: Schema = { type: 'object', description, properties: outline, ...(required.length ? { required } : {}), additionalProperties: true };
  if (JSON.stringify(withNames).length <= maxChars) return withNames;
  return { type: 'object', description, properties: {}, additionalProperties: true };
}

/** A JSON pointer (`#/a/b~1c`) into the root; undefined when it leads nowhere. */
function pointer(root: Schema, ref: string): unknown {
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node) && /^\d+$/.test(key)) node = node[Number(key)];
    else if (isPlainObject(node) && Object.prototype.hasOwnProperty.call(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

/** `#/$defs/Node` → ['$defs', 'Node']; undefined for a ref elsewhere. */
function definitionOf(ref: string): [string, string] | undefined {
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  return match ? [match[1]!, decodeURIComponent(match[2]!).replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
}

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
