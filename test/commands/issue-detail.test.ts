/**
 * How a zod issue is worded for members (issue-detail.ts): each kind of issue a request schema raises maps to one
 * phrase, with its bound where it has one.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { issueDetail } from '../../src/commands/issue-detail.js';

const firstIssue = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error?.issues[0];

describe('issueDetail', () => {
  it.each([
    ['a text too short', z.string().min(3), 'ab', { id: 'detail.value.tooShort', values: { minimum: 3 } }],
    ['a number too small', z.number().min(1), 0, { id: 'detail.value.tooSmall', values: { minimum: 1 } }],
    ['a text too long', z.string().max(2), 'abc', { id: 'detail.value.tooLongText', values: { maximum: 2 } }],
    ['a number too big', z.number().max(10), 11, { id: 'detail.value.tooBig', values: { maximum: 10 } }],
    ['a value not among the choices', z.enum(['low', 'high']), 'mid', { id: 'detail.value.oneOf', values: { values: ['low', 'high'] } }],
    ['a fraction where a whole number is asked', z.int(), 1.5, { id: 'detail.value.wholeNumber' }],
    ['a value of the wrong type', z.string(), 5, { id: 'detail.value.invalid' }],
    ['a malformed value', z.string().regex(/^\d+$/), 'x', { id: 'detail.value.invalid' }],
  ])('words %s', (_name, schema, value, expected) => {
    expect(issueDetail(firstIssue(schema, value))).toMatchObject(expected);
  });

  it('words a missing issue as an invalid value', () => {
    expect(issueDetail(undefined)).toMatchObject({ id: 'detail.value.invalid' });
  });
});
