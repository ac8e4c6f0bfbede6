/**
 * Why zod refused an option, as a phrase members read in their language (zod's own messages are English): a
 * schema's custom message that names a phrase (`detail.prompt.empty`) is that phrase, with the issue's params as
 * its values; any other issue is worded by its code and bounds.
 */
import type { z } from 'zod';
import { isPhraseId, phrase, type Phrase, type PhraseValue } from '../core/phrase.js';

/** The phrase for a zod issue (the first of a failed parse); a generic one when there is none. */
export function issueDetail(issue: z.core.$ZodIssue | undefined): Phrase {
  if (issue === undefined) return phrase('detail.value.invalid');
  if (isPhraseId(issue.message)) return phrase(issue.message, issue.code === 'custom' ? paramsOf(issue.params) : undefined);
  switch (issue.code) {
    case 'too_small':
      return issue.origin === 'string'
        ? phrase('detail.value.tooShort', { minimum: Number(issue.minimum) })
        : phrase('detail.value.tooSmall', { minimum: Number(issue.minimum) });
    case 'too_big':
      return issue.origin === 'string'
        ? phrase('detail.value.tooLongText', { maximum: Number(issue.maximum) })
        : phrase('detail.value.tooBig', { maximum: Number(issue.maximum) });
    case 'invalid_value':
      return phrase('detail.value.oneOf', { values: issue.values.map(String) });
    case 'invalid_type':
      return issue.expected === 'int' ? phrase('detail.value.wholeNumber') : phrase('detail.value.invalid');
    case 'custom':
    case 'invalid_element':
    case 'invalid_format':
    case 'invalid_key':
    case 'invalid_union':
    case 'not_multiple_of':
    case 'unrecognized_keys':
      return phrase('detail.value.invalid');
  }
}

/** A custom issue's params that a phrase can use: numbers and strings. */
function paramsOf(params: Record<string, unknown> | undefined): Record<string, PhraseValue> {
  return Object.fromEntries(
    Object.entries(params ?? {}).filter((entry): entry is [string, string | number] => typeof entry[1] === 'string' || typeof entry[1] === 'number'),
  );
}
