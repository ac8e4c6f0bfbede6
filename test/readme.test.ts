/**
 * Claims of README.md that code can check: the invite link grants exactly the permissions the text lists.
 */
import { readFileSync } from 'node:fs';
import { PermissionsBitField, type PermissionsString } from 'discord.js';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** The README's wording of a permission → discord.js's flag name. */
function flagOf(label: string): PermissionsString {
  const wanted = label
    .replace(/\b(\w)/g, (c) => c.toUpperCase())
    .replace(/ /g, '')
    .replace(/Channels$/, 'Channel');
  const flag = Object.keys(PermissionsBitField.Flags).find((name) => name === wanted);
  if (!flag) throw new Error(`README lists an unknown permission: ${label}`);
  return flag as PermissionsString;
}

describe('README: inviting the bot', () => {
  const step = /^2\. Invite it with .*$/m.exec(readme)?.[0] ?? '';
  const listed = [...step.replace(/\(permission integer.*$/, '').matchAll(/\*\*([A-Z][A-Za-z ]+)\*\*/g)].map((m) => flagOf(m[1]!));
  const stated = /permission integer `(\d+)`/.exec(step)?.[1];
  const inUrl = /https:\/\/discord\.com\/oauth2\/authorize\?[^`\s]*permissions=(\d+)/.exec(readme)?.[1];

  it('lists the permissions the bot needs, including View Channels and Send Messages in Threads', () => {
    expect(listed).toEqual(expect.arrayContaining(['ViewChannel', 'SendMessages', 'SendMessagesInThreads', 'AttachFiles', 'EmbedLinks', 'ReadMessageHistory']));
  });

  it('states an integer, and uses one in the invite URL, that decode to exactly the listed permissions', () => {
    expect(stated).toBeDefined();
    expect(inUrl).toBe(stated);
    const decoded = new PermissionsBitField(BigInt(stated!)).toArray();
    expect(decoded.sort()).toEqual([...listed].sort());
  });
});
