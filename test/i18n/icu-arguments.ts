/**
 * The arguments an ICU message uses, read from its syntax tree, and sample values that satisfy them: for the
 * catalogue parity test and for rendering every message in every language.
 */
import { IntlMessageFormat } from 'intl-messageformat';

/** How a message uses an argument: a number (plural, `number`), a choice (select, with its cases) or text. */
export type ArgumentUse = { kind: 'number' } | { kind: 'select'; cases: string[] } | { kind: 'text' };

// The parser's element types (@formatjs/icu-messageformat-parser TYPE): argument 1, number 2, select 5, plural 6.
const ARGUMENT = 1;
const NUMBER = 2;
const SELECT = 5;
const PLURAL = 6;

interface Element {
  type: number;
  value?: unknown;
  options?: Record<string, { value: Element[] }>;
}

/** Parses `message` (throws on a syntax error) and returns its arguments by name. */
export function argumentsOf(message: string, locale: string): Map<string, ArgumentUse> {
  const ast = new IntlMessageFormat(message, locale, undefined, { ignoreTag: true }).getAst() as unknown as Element[];
  const found = new Map<string, ArgumentUse>();
  const walk = (elements: readonly Element[]): void => {
    for (const element of elements) {
      const name = typeof element.value === 'string' ? element.value : undefined;
      if (name !== undefined && (element.type === NUMBER || element.type === PLURAL)) found.set(name, { kind: 'number' });
      else if (name !== undefined && element.type === SELECT) found.set(name, { kind: 'select', cases: Object.keys(element.options ?? {}) });
      else if (name !== undefined && element.type === ARGUMENT && !found.has(name)) found.set(name, { kind: 'text' });
      for (const option of Object.values(element.options ?? {})) walk(option.value);
    }
  };
  walk(ast);
  return found;
}

/** Values for every argument of `uses`: each select takes `choose(cases)`, numbers `number`, text a short word. */
export function sampleValues(uses: ReadonlyMap<string, ArgumentUse>, number: number, choose: (cases: string[]) => string): Record<string, string | number> {
  const values: Record<string, string | number> = {};
  for (const [name, use] of uses) values[name] = use.kind === 'number' ? number : use.kind === 'select' ? choose(use.cases) : `«${name}»`;
  return values;
}
