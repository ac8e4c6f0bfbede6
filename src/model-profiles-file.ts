/**
 * Reads MODEL_PROFILES_FILE for config.ts: JSON mapping model ids or patterns to profile changes
 * (core/model-profiles.ts), checked with zod. Every problem is named with its entry and field, so a bad file
 * stops the bot at start with a message that says what to fix.
 */
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { ProfilesFile } from './core/model-profiles.js';

/** The file's profiles, or what is wrong with it. */
export type ProfilesFileResult = { ok: true; profiles: ProfilesFile } | { ok: false; problems: string[] };

/** Reads and checks the file at `path`. */
export function readProfilesFile(path: string): ProfilesFileResult {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    return { ok: false, problems: [`cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`] };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ok: false, problems: [`is not JSON: ${(err as Error).message}`] };
  }
  const parsed = ProfilesFile.safeParse(json);
  if (parsed.success) return { ok: true, profiles: parsed.data };
  return { ok: false, problems: parsed.error.issues.map(describe) };
}

/** `"dall-e-3".qualities[0]: Invalid option: expected one of …` */
function describe(issue: z.core.$ZodIssue): string {
  const [entry, ...rest] = issue.path;
  const where =
    entry === undefined
      ? 'the file'
      : `${JSON.stringify(String(entry))}${rest.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('')}`;
  const message = issue.code === 'unrecognized_keys' ? `unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}` : issue.message;
  return `${where}: ${message}`;
}
