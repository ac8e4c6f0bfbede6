/**
 * The lint and format gates catch what they are there for: the project's own ESLint config reports a floating promise and a
 * non-exhaustive switch in a file of src, and Prettier with the project's config rejects a misformatted file.
 * The planted files exist only in memory: ESLint is given their text under a path in src, Prettier their text alone.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PLANTED_PATH = 'src/planted-by-tooling-test.ts';
const MEMBER_TEXT_PATH = 'src/commands/planted-by-tooling-test.ts';

/**
 * The project's ESLint config, with one change: the planted file is on no disk, so tsconfig.json's project does not list it;
 * allowDefaultProject has TypeScript check it alone with tsconfig.json's compiler options instead.
 */
function projectEslint(): ESLint {
  return new ESLint({
    cwd: ROOT,
    cache: false,
    // (One project service serves every ESLint of the process: it allows both planted paths.)
    overrideConfig: {
      languageOptions: { parserOptions: { projectService: { allowDefaultProject: [PLANTED_PATH, MEMBER_TEXT_PATH], defaultProject: 'tsconfig.json' } } },
    },
  });
}

const PLANTED = `type Stage = 'queued' | 'generating' | 'done';

async function send(text: string): Promise<void> {
  await Promise.resolve(text);
}

export function label(stage: Stage): string {
  switch (stage) {
    case 'queued':
      return 'in the queue';
    case 'generating':
      return 'drawing';
  }
  return 'unknown';
}

export function notify(): void {
  send('hello');
}
`;

describe('npm run lint', () => {
  it('reports a floating promise and a non-exhaustive switch in src, and only those', async () => {
    const [result] = await projectEslint().lintText(PLANTED, { filePath: join(ROOT, PLANTED_PATH) });
    const found = (result?.messages ?? []).map((m) => `${String(m.line)}: ${m.ruleId ?? m.message}`);
    expect(found).toEqual(['8: @typescript-eslint/switch-exhaustiveness-check', '18: @typescript-eslint/no-floating-promises']);
  }, 60_000);

  it('accepts the same file with the promise handled and the switch complete', async () => {
    const fixed = PLANTED.replace(
      "      return 'drawing';\n  }\n  return 'unknown';",
      "      return 'drawing';\n    case 'done':\n      return 'done';\n  }",
    ).replace("  send('hello');", "  // Fire and forget: send never rejects here.\n  void send('hello');");
    const [result] = await projectEslint().lintText(fixed, { filePath: join(ROOT, PLANTED_PATH) });
    expect(result?.messages.map((m) => `${String(m.line)}: ${m.ruleId ?? m.message}`)).toEqual([]);
  }, 60_000);
});

const MEMBER_TEXT = `declare const interaction: { editReply(options: { content: string }): Promise<void> };
declare function t(locale: string, key: string): string;

export const next = { type: 2, label: 'Next page', custom_id: 'page:2' };

export async function answer(locale: string): Promise<void> {
  await interaction.editReply({ content: \`Your history is empty, \${locale}\` });
  await interaction.editReply({ content: t(locale, 'history.empty') });
}

export function line(count: number): string {
  return \`You have \${count} images left\`;
}
`;

describe('member-facing text in the code', () => {
  it('is reported where Discord input and output are written: a label, a reply and a returned sentence in English', async () => {
    const [result] = await projectEslint().lintText(MEMBER_TEXT, { filePath: join(ROOT, MEMBER_TEXT_PATH) });
    const found = (result?.messages ?? []).map((m) => `${String(m.line)}: ${m.ruleId ?? m.message}`);
    // Line 12 twice: both parts of its sentence have words.
    expect(found).toEqual(['4: no-restricted-syntax', '7: no-restricted-syntax', '12: no-restricted-syntax', '12: no-restricted-syntax']);
    // The same text from the catalogues is fine, and so is the same file outside the rooms that talk to members.
    const [elsewhere] = await projectEslint().lintText(MEMBER_TEXT, { filePath: join(ROOT, PLANTED_PATH) });
    expect((elsewhere?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax')).toEqual([]);
  }, 60_000);
});

describe('npm run format:check', () => {
  const filepath = join(ROOT, PLANTED_PATH);

  it('rejects a misformatted file and accepts it once formatted, with the project config', async () => {
    const options = await prettier.resolveConfig(filepath, { editorconfig: true });
    expect(options).toMatchObject({ printWidth: 160, singleQuote: true });
    const misformatted = 'export const answer = {value:"forty-two",   list:[1,2,3]}\n';
    expect(await prettier.check(misformatted, { ...options, filepath })).toBe(false);
    const formatted = await prettier.format(misformatted, { ...options, filepath });
    expect(formatted).toBe("export const answer = { value: 'forty-two', list: [1, 2, 3] };\n");
    expect(await prettier.check(formatted, { ...options, filepath })).toBe(true);
  });

  it('leaves the ignored files alone', async () => {
    const info = await prettier.getFileInfo(join(ROOT, 'package-lock.json'), { ignorePath: join(ROOT, '.prettierignore') });
    expect(info.ignored).toBe(true);
  });
});
