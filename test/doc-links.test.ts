/**
 * The README stays a start, and its links hold (issue 31): it is at most about 250 lines, and every relative link in
 * it and in docs/*.md names a file that exists and, with `#anchor`, a heading (or `<a id>`) of that file, as GitHub
 * makes anchors of headings. External links are not fetched.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** GitHub's anchor of a heading: lower case, punctuation dropped (but `-` and `_`), spaces as `-`. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, (c) => (c === '_' ? '_' : ''))
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown file: its headings' (duplicates numbered as GitHub does) and its `<a id>`s. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6} (.+)$/.exec(line)?.[1];
    if (heading !== undefined) {
      const base = anchorOf(heading);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const m of line.matchAll(/<a id="([^"]+)"><\/a>/g)) anchors.add(m[1]!);
  }
  return anchors;
}

/** The relative links of a Markdown file (outside code), as written. */
function linksOf(text: string): string[] {
  const outsideCode = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...outsideCode.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((href) => !/^[a-z]+:/i.test(href));
}

describe('the documentation', () => {
  it('keeps the README under about 250 lines, starting with how to start', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    const firstScreen = readme.split('\n').slice(0, 20).join('\n');
    expect(firstScreen).toMatch(/!\[[^\]]+\]\(docs\/result-card\.png\)/);
    for (const command of ['npm ci', 'npm run playground', 'npm start', 'npm test']) expect(firstScreen).toContain(command);
  });

  it.each(DOCUMENTS)('%s: every relative link names a file that exists, and an anchor it has', (document) => {
    const text = readFileSync(join(ROOT, document), 'utf8');
    const broken: string[] = [];
    for (const href of linksOf(text)) {
      const [path = '', anchor] = href.split('#');
      const target = path === '' ? join(ROOT, document) : join(ROOT, dirname(document), decodeURIComponent(path));
      if (!existsSync(target)) {
        broken.push(`${href}: no file ${relative(ROOT, target)}`);
        continue;
      }
      if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor))
        broken.push(`${href}: no heading with anchor #${anchor} in ${relative(ROOT, target)}`);
    }
    expect(broken).toEqual([]);
  });

  it('makes anchors as GitHub does', () => {
    expect(anchorOf('Result cards and actions')).toBe('result-cards-and-actions');
    expect(anchorOf('Limits cached for 5 s, keyv on the bot’s own pool (issue 14, continued)')).toBe(
      'limits-cached-for-5-s-keyv-on-the-bots-own-pool-issue-14-continued',
    );
    expect(anchorOf('`npm run playground`')).toBe('npm-run-playground');
    expect(linksOf('see [a](docs/x.md#y) and `[b](nope.md)` and [c](https://example.com)')).toEqual(['docs/x.md#y']);
  });
});
