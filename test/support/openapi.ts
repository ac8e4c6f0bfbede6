/**
 * Request-body validation against the official OpenAPI descriptions, read from `OPENAPI_SPEC_DIR` when set, else
 * from ../shared/spec beside the repository.
 *
 * Both emulators run every request they receive through this, so a bot or client that sends something the
 * platform would not accept fails the test that caused it. Where a description is absent (a clone with nothing
 * beside it) the emulators run without validation and the tests about validation are skipped, saying why; with
 * `OPENAPI_SPEC_REQUIRED=true` (CI, when the descriptions are there) an absent description is an error instead.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/** Which saved spec to validate against. */
export type SpecName = 'discord' | 'openai';

/** How the body arrived: JSON keeps its types; form bodies carry every scalar as text and are coerced. */
export type BodyEncoding = 'json' | 'form';

const SPEC_FILES: Record<SpecName, string> = {
  discord: 'discord-openapi.json',
  openai: 'openai-openapi.json',
};

const HTTP_METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

interface Operation {
  readonly template: string;
  readonly pattern: RegExp;
  readonly literalLength: number;
  readonly method: string;
  readonly contentTypes: Readonly<Record<string, string>>;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

/** Validates request bodies for the operations of one spec. */
export class SpecValidator {
  readonly name: SpecName;
  private readonly operations: Operation[];
  private readonly jsonAjv: Ajv2020;
  private readonly formAjv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(name: SpecName, document: Record<string, unknown>) {
    this.name = name;
    this.operations = listOperations(document);
    this.jsonAjv = createAjv(name, document, false);
    this.formAjv = createAjv(name, document, true);
  }

  /** Finds the operation for a concrete path (without the /api/v10 or /v1 prefix), or undefined. */
  findOperation(method: string, path: string): { template: string } | undefined {
    const decoded = decodeURIComponent(path.split('?')[0] ?? path);
    const matches = this.operations.filter((op) => op.method === method.toLowerCase() && op.pattern.test(decoded));
    matches.sort((a, b) => b.literalLength - a.literalLength);
    const best = matches[0];
    return best ? { template: best.template } : undefined;
  }

  /**
   * Validates a body; returns the list of problems (empty when valid).
   * @param contentType media type without parameters, e.g. `application/json` or `multipart/form-data`
   */
  validateRequest(method: string, path: string, contentType: string, body: unknown, encoding: BodyEncoding = 'json'): string[] {
    const op = this.findOperationFull(method, path);
    if (!op) return [`${this.name}: no operation ${method.toUpperCase()} ${path} in the spec`];
    const ref = op.contentTypes[contentType];
    if (!ref) return [`${this.name}: ${method.toUpperCase()} ${op.template} does not accept ${contentType}`];
    const validate = this.getValidator(ref, encoding);
    // Form coercion rewrites values in place; validate a copy so callers keep what arrived.
    const subject = encoding === 'form' ? structuredClone(body) : body;
    if (validate(subject)) return [];
    return (validate.errors ?? []).map(
      (e) => `${this.name}: ${op.template} ${e.instancePath || '(body)'} ${e.message ?? 'invalid'} ${JSON.stringify(e.params)}`,
    );
  }

  /** Validates a value against a named component schema, e.g. `CreateImageRequest`. */
  validateSchema(schemaName: string, value: unknown, encoding: BodyEncoding = 'json'): string[] {
    const validate = this.getValidator(`#/components/schemas/${schemaName}`, encoding);
    const subject = encoding === 'form' ? structuredClone(value) : value;
    if (validate(subject)) return [];
    return (validate.errors ?? []).map((e) => `${this.name}: ${schemaName} ${e.instancePath || '(value)'} ${e.message ?? 'invalid'}`);
  }

  private findOperationFull(method: string, path: string): Operation | undefined {
    const found = this.findOperation(method, path);
    return found ? this.operations.find((op) => op.template === found.template && op.method === method.toLowerCase()) : undefined;
  }

  private getValidator(ref: string, encoding: BodyEncoding): ValidateFunction {
    const key = `${encoding} ${ref}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      const ajv = encoding === 'form' ? this.formAjv : this.jsonAjv;
      validate = ajv.compile({ $ref: `${this.name}${ref}` });
      this.compiled.set(key, validate);
    }
    return validate;
  }
}

function createAjv(name: SpecName, document: Record<string, unknown>, coerce: boolean): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    validateFormats: true,
    // Multipart and urlencoded bodies carry numbers and booleans as text, and a single repeated part as a scalar.
    coerceTypes: coerce ? 'array' : false,
  });
  addFormats(ajv);
  // The spec's own formats that ajv-formats does not know (int64, binary, …) are descriptive only.
  for (const format of ['int32', 'int64', 'float', 'double', 'binary', 'byte', 'snowflake', 'nonce', 'unixtime']) ajv.addFormat(format, true);
  ajv.addSchema({ ...normaliseNullable(document), $id: name });
  return ajv;
}

/**
 * The OpenAI spec is 3.1 but still writes OpenAPI 3.0's `nullable: true`, which JSON Schema 2020-12 does not know;
 * rewrite it as the 3.1 spelling (a `null` type or a `null` branch) so the intent holds.
 */
function normaliseNullable(node: unknown): Record<string, unknown> {
  return rewrite(node) as Record<string, unknown>;
  function rewrite(value: unknown): unknown {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) out[key] = rewrite(child);
    if (out['nullable'] !== true) return out;
    delete out['nullable'];
    const type = out['type'];
    if (typeof type === 'string') out['type'] = [type, 'null'];
    else if (Array.isArray(type)) out['type'] = type.includes('null') ? type : [...(type as unknown[]), 'null'];
    else if (Array.isArray(out['anyOf'])) out['anyOf'] = [...(out['anyOf'] as unknown[]), { type: 'null' }];
    else if (Array.isArray(out['oneOf'])) out['oneOf'] = [...(out['oneOf'] as unknown[]), { type: 'null' }];
    else if (Array.isArray(out['allOf'])) return { anyOf: [{ allOf: out['allOf'] }, { type: 'null' }], ...without(out, 'allOf') };
    return out;
  }
}

function without(obj: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _omitted, ...rest } = obj;
  return rest;
}

function listOperations(document: Record<string, unknown>): Operation[] {
  const paths = (document['paths'] ?? {}) as Record<string, Record<string, unknown>>;
  const ops: Operation[] = [];
  for (const [template, item] of Object.entries(paths)) {
    const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
    const pattern = new RegExp(`^${source}$`);
    const literalLength = template.replace(/\{[^}]+\}/g, '').length;
    for (const method of HTTP_METHODS) {
      const operation = item[method] as { requestBody?: { content?: Record<string, { schema?: unknown }> } } | undefined;
      if (!operation) continue;
      const contentTypes: Record<string, string> = {};
      const content = operation.requestBody?.content ?? {};
      for (const mediaType of Object.keys(content)) {
        contentTypes[mediaType] = `#/paths/${escapePointer(template)}/${method}/requestBody/content/${escapePointer(mediaType)}/schema`;
      }
      ops.push({ template, pattern, literalLength, method, contentTypes });
    }
  }
  return ops;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Whether a saved spec can be used; when it cannot, `reason` says which file is missing and what to do. */
export type SpecStatus = { readonly available: true; readonly file: string } | { readonly available: false; readonly reason: string };

const SPEC_NAMES = Object.keys(SPEC_FILES) as SpecName[];
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEFAULT_DIR = '../shared/spec';
const HINT = 'set OPENAPI_SPEC_DIR to a folder with the official OpenAPI descriptions';

/** The folder the specs are read from, and how to name it in messages (the default relative to the repository). */
function specDir(): { readonly dir: string; readonly shown: string } {
  const configured = process.env['OPENAPI_SPEC_DIR'];
  if (configured) return { dir: resolve(configured), shown: resolve(configured) };
  return { dir: resolve(REPO_ROOT, DEFAULT_DIR), shown: DEFAULT_DIR };
}

/** `OPENAPI_SPEC_REQUIRED`: true or 1 makes an absent spec an error; unset, empty, false or 0 does not. */
function specRequired(): boolean {
  const value = process.env['OPENAPI_SPEC_REQUIRED']?.trim().toLowerCase() ?? '';
  if (value === 'true' || value === '1') return true;
  if (value === '' || value === 'false' || value === '0') return false;
  throw new Error(`OPENAPI_SPEC_REQUIRED must be true or false, not ${JSON.stringify(process.env['OPENAPI_SPEC_REQUIRED'])}`);
}

/** Where a spec is read from, and how to name that file in messages. */
function locate(name: SpecName): { readonly file: string; readonly shown: string } {
  const { dir, shown } = specDir();
  return { file: join(dir, SPEC_FILES[name]), shown: join(shown, SPEC_FILES[name]) };
}

function absence(shown: readonly string[]): string {
  return `${shown.join(' and ')} ${shown.length > 1 ? 'are' : 'is'} absent (${HINT})`;
}

/**
 * Whether a saved spec is there to validate against.
 * @throws when it is absent and `OPENAPI_SPEC_REQUIRED=true`, so a run that must validate cannot quietly stop
 */
export function specStatus(name: SpecName): SpecStatus {
  const { file, shown } = locate(name);
  if (existsSync(file)) return { available: true, file };
  const reason = absence([shown]);
  if (specRequired()) throw new Error(`OPENAPI_SPEC_REQUIRED=true, but ${reason}`);
  return { available: false, reason };
}

/**
 * For a test about validation itself: whether to skip it, and its name, which carries the reason when skipped.
 * @example
 * const spec = specTest('openai', 'records spec violations');
 * it.skipIf(spec.skip)(spec.title, () => …);
 */
export function specTest(name: SpecName, title: string): { readonly skip: boolean; readonly title: string } {
  const status = specStatus(name);
  return status.available ? { skip: false, title } : { skip: true, title: `${title}: skipped because ${status.reason}` };
}

/**
 * One line on whether the emulators validate: `OpenAPI validation on (../shared/spec)`, or
 * `OpenAPI validation off: ../shared/spec/discord-openapi.json and ../shared/spec/openai-openapi.json are absent (…)`.
 */
export function specValidationSummary(): string {
  const absent = SPEC_NAMES.filter((name) => !existsSync(locate(name).file));
  if (absent.length === 0) return `OpenAPI validation on (${specDir().shown})`;
  const reason = absence(absent.map((name) => locate(name).shown));
  const required = specRequired() ? '; OPENAPI_SPEC_REQUIRED=true, so the emulators will refuse to start' : '';
  if (absent.length === SPEC_NAMES.length) return `OpenAPI validation off: ${reason}${required}`;
  const on = SPEC_NAMES.filter((name) => !absent.includes(name));
  return `OpenAPI validation on for ${on.join(' and ')} only: ${reason}${required}`;
}

const cache = new Map<string, SpecValidator>();

/**
 * Loads (once per process and file) the validator for a saved spec; undefined when the spec is absent, in which case
 * the caller validates nothing.
 * @throws when the spec is absent and `OPENAPI_SPEC_REQUIRED=true`
 */
export function loadSpecValidator(name: SpecName): SpecValidator | undefined {
  const status = specStatus(name);
  if (!status.available) return undefined;
  let validator = cache.get(status.file);
  if (!validator) {
    validator = new SpecValidator(name, JSON.parse(readFileSync(status.file, 'utf8')) as Record<string, unknown>);
    cache.set(status.file, validator);
  }
  return validator;
}
