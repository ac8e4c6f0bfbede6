/**
 * /quota's registration data and the typed request of `/quota set`.
 */
import { ApplicationCommandOptionType, ApplicationCommandType, InteractionContextType } from 'discord.js';
import { z } from 'zod';
import type { PhraseId } from '../core/phrase.js';
import { chatInputData } from './option-reader.js';
import { PERIOD_CHOICES } from './server-admin.js';

/** Whom a limit is for: a member, or a role (neither: the server). */
const TARGET_OPTIONS = [
  { type: ApplicationCommandOptionType.User, name: 'user', description: 'This member only (overrides roles)' },
  { type: ApplicationCommandOptionType.Role, name: 'role', description: 'Members with this role (the most generous role wins)' },
] as const;

const periodOption = (description: string) => ({
  type: ApplicationCommandOptionType.String as const,
  name: 'period',
  description,
  choices: PERIOD_CHOICES,
});

export const QUOTA_DATA = chatInputData({
  type: ApplicationCommandType.ChatInput,
  name: 'quota',
  description: 'See how many images you have left, or manage limits (Manage Server)',
  contexts: [InteractionContextType.Guild],
  options: [
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'show',
      description: 'Your limit, what you used and when it resets',
      options: [{ type: ApplicationCommandOptionType.User, name: 'user', description: 'Another member (needs Manage Server)' }],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'set',
      description: 'Set a limit for a member, a role, or the whole server (Manage Server)',
      options: [
        {
          type: ApplicationCommandOptionType.Integer,
          name: 'limit',
          description: 'Images per period; 0 blocks',
          required: true,
          min_value: 0,
          max_value: 100_000,
        },
        ...TARGET_OPTIONS,
        periodOption("Day, week or month (UTC); defaults to the server's period"),
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'money',
      description: 'Set a spending limit in US dollars for a member, a role, or the whole server (Manage Server)',
      options: [
        {
          type: ApplicationCommandOptionType.Number,
          name: 'usd',
          description: 'US dollars per period, as the gateway reports or the bot estimates costs; 0 blocks',
          required: true,
          min_value: 0,
          max_value: 100_000,
        },
        ...TARGET_OPTIONS,
        periodOption('Day, week or month (UTC); a month by default'),
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'money-remove',
      description: 'Remove a spending limit, so the next level applies (Manage Server)',
      options: [
        { type: ApplicationCommandOptionType.User, name: 'user', description: "This member's own limit" },
        { type: ApplicationCommandOptionType.Role, name: 'role', description: "This role's limit" },
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'reset',
      description: "Clear a member's usage for the current period (Manage Server)",
      options: [{ type: ApplicationCommandOptionType.User, name: 'user', description: 'The member', required: true }],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'strikes-clear',
      description: "Clear a member's moderation strikes and lift their pause (Manage Server)",
      options: [{ type: ApplicationCommandOptionType.User, name: 'user', description: 'The member', required: true }],
    },
  ],
});

/** `/quota money` and `money-remove` options, validated: a user or a role, not both; no amount removes the limit. */
export const QuotaMoneyRequest = z
  .object({
    usd: z.number().min(0).max(100_000).optional(),
    userId: z.string().optional(),
    roleId: z.string().optional(),
    period: z.enum(['day', 'week', 'month']).optional(),
  })
  .refine((r) => !(r.userId && r.roleId), { error: 'detail.target.both' satisfies PhraseId });

/** `/quota set` options, validated: a user or a role, not both. */
export const QuotaSetRequest = z
  .object({
    limit: z.number().int().min(0),
    userId: z.string().optional(),
    roleId: z.string().optional(),
    period: z.enum(['day', 'week', 'month']).optional(),
  })
  .refine((r) => !(r.userId && r.roleId), { error: 'detail.target.both' satisfies PhraseId });
export type QuotaSetRequest = z.infer<typeof QuotaSetRequest>;
