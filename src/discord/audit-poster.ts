/**
 * The audit channel's lines, posted with the bot's REST client (issue 17): one compact message per job started on
 * the server, per change of its settings, per member paused by moderation strikes (issue 27) and per emoji, sticker,
 * showcase post and style made (issue 32). Mentions are shown
 * but never ping; prompts are never posted. A line that cannot be posted (no access, the channel gone) is logged and
 * dropped: the audit never fails a job.
 */
import { Routes, type REST } from 'discord.js';
import type { Logger } from 'pino';
import type { AuditedAction, AuditedChange, AuditedJob, AuditedPause, AuditTrail } from '../ports/audit-trail.js';
import type { QuotaTarget } from '../core/quota.js';
import { messageLink } from '../core/history-entries.js';
import { translator, type Translate } from '../i18n/translate.js';

const OUTCOME_MARK: Record<AuditedJob['outcome'], string> = { delivered: '✅', refused: '⛔', failed: '⚠️', cancelled: '✖️' };
const COMMAND: Record<AuditedJob['job']['kind'], string> = { imagine: '/imagine', edit: '/edit' };
/** Longest value of a changed setting shown before it is cut. */
const VALUE_ROOM = 300;
/** Longest model, size or quality shown: what a member typed for a refused job can be anything. */
const PARAM_ROOM = 80;

/** See the module comment. */
export class DiscordAuditTrail implements AuditTrail {
  readonly #rest: REST;
  readonly #log: Logger;

  constructor(options: { rest: REST; logger: Logger }) {
    this.#rest = options.rest;
    this.#log = options.logger.child({ module: 'audit' });
  }

  job(entry: AuditedJob): Promise<void> {
    return this.#post(entry.guildId, entry.auditChannelId, jobLine(entry));
  }

  settingsChanged(entry: AuditedChange): Promise<void> {
    return this.#post(entry.guildId, entry.auditChannelId, changeLine(entry));
  }

  memberPaused(entry: AuditedPause): Promise<void> {
    return this.#post(entry.guildId, entry.auditChannelId, pauseLine(entry));
  }

  memberAction(entry: AuditedAction): Promise<void> {
    return this.#post(entry.guildId, entry.auditChannelId, actionLine(entry));
  }

  async #post(guildId: string, channelId: string, content: string): Promise<void> {
    try {
      await this.#rest.post(Routes.channelMessages(channelId), { body: { content, allowed_mentions: { parse: [] } } });
    } catch (err) {
      this.#log.warn({ err, guildId, channelId }, 'could not post to the audit channel');
    }
  }
}

/**
 * `✅ delivered · <@member> · /imagine · gpt-image-2 · 1024x1024 · high · 2 of 2 images · $0.0421 · [result](…)`, in the
 * server's preferred language (its `guild_locale`, carried on the job).
 */
export function jobLine(entry: AuditedJob): string {
  const { job } = entry;
  const say = translator(job.origin.guildLocale);
  const command = COMMAND[job.kind];
  const parts = [
    `${OUTCOME_MARK[entry.outcome]} ${say('audit.outcome', { outcome: entry.outcome })}${entry.reason ? ` (${entry.reason})` : ''}`,
    `<@${job.origin.requesterId}>`,
    job.origin.channelId ? say('audit.where', { command, channel: `<#${job.origin.channelId}>` }) : command,
    entry.model && codeSpan(entry.model, PARAM_ROOM),
    entry.size && plainOrCode(entry.size, /^(\d{1,5}x\d{1,5}|auto)$/),
    entry.quality && plainOrCode(entry.quality, /^[a-z]{1,12}$/),
    say('audit.images', { delivered: entry.delivered, count: entry.count }),
    entry.cost !== undefined && `$${entry.cost.usd.toFixed(4)} (${entry.cost.source})`,
    entry.messageId &&
      job.origin.channelId &&
      `[${say('audit.result')}](${messageLink({ guildId: entry.guildId, channelId: job.origin.channelId, messageId: entry.messageId })})`,
  ];
  return `${parts.filter(Boolean).join(' · ')}\n-# ${say('audit.job', { jobId: job.id })}`;
}

/**
 * `⚙️ <@admin> changed previews: true → false` (only the fields that changed), or for a quota change
 * `⚙️ <@admin> changed \`/quota set\` for the server`, in the server's preferred language.
 */
export function changeLine(entry: AuditedChange): string {
  const say = translator(entry.locale);
  const keys = [...new Set([...Object.keys(entry.before), ...Object.keys(entry.after)])];
  const changed = keys.filter((key) => JSON.stringify(entry.before[key]) !== JSON.stringify(entry.after[key]));
  const shown = (value: unknown) => codeSpan(value === undefined ? say('audit.unset') : JSON.stringify(value), VALUE_ROOM);
  const lines = changed.map((key) => `${key}: ${shown(entry.before[key])} → ${shown(entry.after[key])}`);
  const command = entry.setting.startsWith('/') ? entry.setting : `/settings ${entry.setting}`;
  const changedWhat = say('audit.changed', {
    by: `<@${entry.by}>`,
    hasTarget: entry.target === undefined ? 'no' : 'yes',
    command: `\`${command}\``,
    target: entry.target === undefined ? '' : targetText(entry.target, say),
  });
  return `⚙️ ${changedWhat}${lines.length > 0 ? `\n${lines.join('\n')}` : `: ${say('audit.nothingChanged')}`}`;
}

/**
 * `⏸️ <@member> is paused from generating until <t:…:f> (<t:…:R>): 3 requests refused by moderation within 24 hours`, in
 * the server's preferred language.
 */
export function pauseLine(entry: AuditedPause): string {
  const say = translator(entry.locale);
  const seconds = Math.ceil(entry.until / 1000);
  const paused = say('audit.paused', {
    who: `<@${entry.userId}>`,
    until: `<t:${seconds}:f> (<t:${seconds}:R>)`,
    strikes: entry.strikes,
    hours: entry.windowHours,
  });
  return `⏸️ ${paused}\n-# ${say('audit.job', { jobId: entry.jobId })}`;
}

const ACTION_MARK: Record<AuditedAction['action'], string> = { emoji: '😀', sticker: '🏷️', showcase: '⭐', style: '🎨', styleDeleted: '🗑️' };
/** Longest emoji, sticker or style name shown (Discord's and the styles' own limits are shorter). */
const NAME_ROOM = 40;

/**
 * `😀 <@member> added the emoji \`lighthouse\``, `⭐ <@member> posted <@author>'s result to the showcase · [post](…)`,
 * `🎨 <@member> saved the server style \`noir\``, in the server's preferred language.
 */
export function actionLine(entry: AuditedAction): string {
  const say = translator(entry.locale);
  const line = say('audit.action', {
    action: entry.action,
    who: `<@${entry.userId}>`,
    name: codeSpan(entry.name ?? '', NAME_ROOM),
    author: entry.authorId === undefined ? '' : `<@${entry.authorId}>`,
    scope: entry.serverStyle === true ? 'server' : 'member',
  });
  return `${ACTION_MARK[entry.action]} ${line}${entry.link === undefined ? '' : ` · [${say('audit.post')}](${entry.link})`}`;
}

/**
 * `text` as an inline code span that renders literally whatever it holds: a backtick (which would end the span and
 * let markdown, links and mentions through) becomes ˋ, line breaks become spaces, and it is cut to `room`.
 */
export function codeSpan(text: string, room: number): string {
  const inert = text.replaceAll('`', 'ˋ').replace(/[\r\n]+/g, ' ');
  return `\`${inert.length > room ? `${inert.slice(0, room)}…` : inert}\``;
}

/** A value as it is when it is one the bot itself would write (`shape`), else as a literal code span. */
function plainOrCode(value: string, shape: RegExp): string {
  return shape.test(value) ? value : codeSpan(value, PARAM_ROOM);
}

/** Whom a quota change applies to: a mention, or the server in words. */
function targetText(target: QuotaTarget, say: Translate): string {
  if (target.kind === 'member') return `<@${target.userId}>`;
  if (target.kind === 'role') return `<@&${target.roleId}>`;
  return say('audit.quota.server');
}
