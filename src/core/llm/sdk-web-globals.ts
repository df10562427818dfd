// `Headers` and `FormData` for the SDKs' bundles (dist/vendor/openai.js and anthropic.js; esbuild's
// `inject` in esbuild.config.mjs): the SDKs build every request's headers with the global `Headers`,
// and in Node 20 touching it (or `FormData`) loads Node's whole fetch implementation, undici (about
// 60 ms at start-up), even when the SDK is given a fetch of its own (sdk-fetch.ts). Headers here is
// the Fetch standard's class without its validation (node:http validates what is sent); FormData is
// Node's own, reached only when a request really builds one, and `instanceof` knows either's objects.

const STANDARD_TAG = (value: unknown, tag: string) => typeof value === 'object' && value !== null && Object.prototype.toString.call(value) === `[object ${tag}]`;

/** Leading and trailing HTTP whitespace goes, as the standard's header value normalisation says. */
const normalise = (value: unknown) => String(value).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');

export class Headers {
  readonly #values = new Map<string, string[]>();

  constructor(init?: Iterable<readonly [string, string]> | Record<string, string> | Headers) {
    if (init === undefined || init === null) return;
    const pairs = Symbol.iterator in Object(init) ? (init as Iterable<readonly [string, string]>) : Object.entries(init as Record<string, string>);
    for (const [name, value] of pairs) this.append(name, value);
  }

  append(name: string, value: string): void {
    const key = String(name).toLowerCase();
    const list = this.#values.get(key);
    if (list) list.push(normalise(value));
    else this.#values.set(key, [normalise(value)]);
  }

  set(name: string, value: string): void {
    this.#values.set(String(name).toLowerCase(), [normalise(value)]);
  }

  delete(name: string): void {
    this.#values.delete(String(name).toLowerCase());
  }

  has(name: string): boolean {
    return this.#values.has(String(name).toLowerCase());
  }

  get(name: string): string | null {
    return this.#values.get(String(name).toLowerCase())?.join(', ') ?? null;
  }

  getSetCookie(): string[] {
    return [...(this.#values.get('set-cookie') ?? [])];
  }

  /** Sorted by name, values of one name combined, set-cookie lines apart: as the standard iterates. */
  *entries(): IterableIterator<[string, string]> {
    for (const name of [...this.#values.keys()].sort()) {
      const list = this.#values.get(name)!;
      if (name === 'set-cookie') for (const cookie of list) yield [name, cookie];
      else yield [name, list.join(', ')];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  forEach(callback: (value: string, name: string, headers: Headers) => void, thisArg?: unknown): void {
    for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this);
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return 'Headers';
  }

  /** The SDKs ask `headers instanceof Headers` of what a caller passed: Node's own Headers count too. */
  static [Symbol.hasInstance](value: unknown): boolean {
    return STANDARD_TAG(value, 'Headers');
  }
}

export class FormData {
  constructor() {
    // A constructor may return another object: Node's FormData, loaded only now.
    return new globalThis.FormData() as unknown as FormData;
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return STANDARD_TAG(value, 'FormData');
  }
}
