import { randomBytes } from 'node:crypto';

/**
 * Short, URL-safe, unguessable id: fits in a button's custom id with room to spare. It starts with a letter or a digit,
 * so a spreadsheet never reads it as a formula (a leading `-`) and the usage CSV can carry it as it is.
 */
export function newJobId(): string {
  for (;;) {
    const id = randomBytes(9).toString('base64url');
    if (/^[A-Za-z0-9]/.test(id)) return id;
  }
}
