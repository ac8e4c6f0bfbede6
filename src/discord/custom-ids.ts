/**
 * Every custom id the bot gives a button, select or modal, defined once (issue 30): a family is a prefix and the
 * typed fields after it (`act:{jobId}:{code}`), with `build` for the views that render it and `parse` for the router
 * that dispatches on it. A handler receives the parsed fields; an id that does not parse (an old or forged one) is
 * answered as an expired button, never split by hand. Ids stay within Discord's 100 characters.
 * @see https://discord.com/developers/docs/components/reference#anatomy-of-a-component-custom-id
 */
import { z } from 'zod';

/** The actions on one image, and their codes in the action family (`act:{jobId}:{code}`). */
export const ACTIONS = {
  varySubtle: 'vs',
  varyStrong: 'vx',
  region: 'rg',
  remix: 'rm',
  enlarge: 'en',
  hd: 'hd',
  zoom15: 'z15',
  zoom2: 'z2',
  panLeft: 'pl',
  panRight: 'pr',
  panUp: 'pu',
  panDown: 'pd',
  makeEmoji: 'em',
  makeSticker: 'st',
  favorite: 'fv',
} as const;
export type ActionCode = (typeof ACTIONS)[keyof typeof ACTIONS];

/** Discord's longest custom id. */
const MAX_CUSTOM_ID = 100;

/** One family of custom ids: its prefix, and its fields built into and parsed out of the rest of the id. */
export interface CustomIdFamily<A> {
  readonly prefix: string;
  build(args: A): string;
  /** The fields of an id's part after `prefix:`; undefined when it is not one of this family's. */
  parse(rest: string): A | undefined;
}

/** Ids, tokens and small numbers: nothing with the separator in it. */
const Token = z.string().regex(/^[\w-]{1,64}$/);
/** A whole number written in digits (no exponent, no sign unless `signed`), as a number. */
const digits = (max: number, signed = false) =>
  z
    .string()
    .regex(signed ? /^-?\d{1,15}$/ : /^\d{1,15}$/)
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(signed ? -1 : 0)
        .max(max),
    );
const Index = digits(99);
/** A Discord id (a member's). */
const Snowflake = z.string().regex(/^\d{1,20}$/);

function family<const F extends Record<string, z.ZodType>>(prefix: string, fields: F): CustomIdFamily<{ [K in keyof F]: z.output<F[K]> }> {
  const names = Object.keys(fields);
  const schema = z.object(fields);
  return {
    prefix,
    build(args) {
      const id = [prefix, ...names.map((name) => String(args[name]))].join(':');
      if (id.length > MAX_CUSTOM_ID) throw new RangeError(`custom id ${prefix} longer than ${MAX_CUSTOM_ID} characters`);
      return id;
    },
    parse(rest) {
      const parts = rest.split(':');
      if (parts.length !== names.length) return undefined;
      const parsed = schema.safeParse(Object.fromEntries(names.map((name, i) => [name, parts[i]])));
      return parsed.success ? (parsed.data as { [K in keyof F]: z.output<F[K]> }) : undefined;
    },
  };
}

/** An action on one image of a result: one of {@link ACTIONS}, or `u{n}` to pick the n-th image (from 0). */
const ActionArg = z.union([z.enum(Object.values(ACTIONS) as [ActionCode, ...ActionCode[]]), z.string().regex(/^u\d{1,2}$/)]);

/** Every family; the router refuses two with one prefix. */
export const CUSTOM_IDS = {
  reroll: family('reroll', { jobId: Token }),
  enhance: family('enh', { jobId: Token }),
  edit: family('editres', { jobId: Token }),
  delete: family('delres', { jobId: Token }),
  /** The Delete confirmation's buttons: the kept click's id. */
  deleteConfirmed: family('delok', { id: Token }),
  deleteKept: family('delno', { id: Token }),
  /** The cost confirmation's Generate and Cancel: the pending request's id. */
  confirm: family('costok', { id: Token }),
  cancel: family('costno', { id: Token }),
  action: family('act', { jobId: Token, code: ActionArg }),
  /** A description's Imagine this buttons: its stored prompts and which one. */
  describe: family('descimg', { id: Token, index: Index }),
  /** /history's Previous and Next: the page and the moment the listing was taken. */
  historyPage: family('histpage', { page: digits(9_999, true), asOf: digits(999_999_999_999_999) }),
  /**
   * /history favorites' Previous and Next: whose list (only they may page it), the page, and the moment the listing
   * was taken.
   */
  favoritesPage: family('favpage', { user: Snowflake, page: digits(9_999, true), asOf: digits(999_999_999_999_999) }),
  /** A favorites page's Remove buttons: whose list (only they may remove), the result, and the page to show after. */
  favoriteRemove: family('favrm', { user: Snowflake, jobId: Token, page: digits(9_999) }),
  /** The Edit image menu's modal: the parked attachments' id. */
  menuEdit: family('menuedit', { id: Token }),
  /** The Use as style menu's modal: the parked style image's id. */
  menuStyle: family('menustyle', { id: Token }),
  /** A spoiler card's Reveal (`show`) and Hide (`hide`), for its requester: the result's job, and what the click does. */
  spoiler: family('spoil', { jobId: Token, to: z.enum(['show', 'hide']) }),
} as const;

/** A custom id's family prefix and the rest (its fields), as the router dispatches on them; an id without fields has an empty rest. */
export function splitCustomId(customId: string): [prefix: string, rest: string] {
  const at = customId.indexOf(':');
  return at < 0 ? [customId, ''] : [customId.slice(0, at), customId.slice(at + 1)];
}

/** `u{n}`: the n-th image (from 0) picked; undefined for another action. */
export function pickedImage(code: string): number | undefined {
  const match = /^u(\d{1,2})$/.exec(code);
  return match ? Number(match[1]) : undefined;
}
