/**
 * Validates request bodies against the official OpenAPI spec (test/support/openapi.ts), after a small, documented
 * pre-normalisation for the known gaps between the spec and what the real API (and discord.js) sends (doc §3).
 */
import { loadSpecValidator } from '../../support/openapi.js';
import type { RecordedFile } from './types.js';

/**
 * Rewrites a body so that only real mistakes fail:
 * - (b) `default_member_permissions` is typed integer in the spec, but the API takes (and discord.js sends) a
 *   decimal string; int-parseable strings are coerced, anything else is left to fail.
 * - (e) `%40original` is decoded by the validator's path matcher itself; nothing to do here.
 * - (c) explicit nulls: the spec marks those fields nullable, so they need no rewrite.
 */
export function normaliseForSpec(path: string, body: unknown): unknown {
  if (!/\/commands(\/\d+)?$/.test(path)) return body;
  const fix = (command: unknown): unknown => {
    if (command === null || typeof command !== 'object' || Array.isArray(command)) return command;
    const record = command as Record<string, unknown>;
    const perms = record['default_member_permissions'];
    if (typeof perms === 'string' && /^\d+$/.test(perms) && Number.isSafeInteger(Number(perms))) {
      return { ...record, default_member_permissions: Number(perms) };
    }
    return command;
  };
  return Array.isArray(body) ? body.map(fix) : fix(body);
}

/**
 * Returns the spec violations of one request body (empty when valid, or when the spec is absent: no validation).
 * Multipart bodies are checked as the spec models them: the payload_json fields plus `files[n]` as strings.
 */
export function checkAgainstSpec(method: string, path: string, contentType: string, payload: unknown, files: readonly RecordedFile[]): string[] {
  const validator = loadSpecValidator('discord');
  if (!validator) return [];
  const body = normaliseForSpec(path.split('?')[0] ?? path, payload);
  if (contentType === 'multipart/form-data') {
    const form: Record<string, unknown> = { ...(body as Record<string, unknown>) };
    for (const file of files) form[file.field] = file.filename;
    return validator.validateRequest(method, path, contentType, form, 'form');
  }
  return validator.validateRequest(method, path, contentType, body, 'json');
}
