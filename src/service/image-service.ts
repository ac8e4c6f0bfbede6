/**
 * The use case: one member's image job from acceptance to delivery, run by image-job/runner.ts as a pipeline
 * (preflight → confirm → hold → produce → deliver → settle), /show's and U1's cards (image-job/present.ts), and the
 * emoji and stickers made from a result (expressions.ts).
 * The after-delivery bookkeeping (usage log, archive, history, metrics, usage totals, audit) listens to the settled
 * job (image-job/listeners/), each subscribed here.
 */
import type { Logger } from 'pino';
import type { ClaimedJobs } from './claimed-jobs.js';
import type { AttachmentRef, ImageJob } from '../core/jobs.js';
import type { Responder } from '../ports/responder.js';
import type { Clock } from '../ports/clock.js';
import type { ImageGateway } from '../ports/image-gateway.js';
import { resolveJobDeps, type HoldDeps, type JobRules, type ListenerDeps, type ProduceDeps } from './image-job/deps.js';
import { archiveListener } from './image-job/listeners/archive.js';
import { auditListener } from './image-job/listeners/audit.js';
import { historyListener } from './image-job/listeners/history.js';
import { metricsListener } from './image-job/listeners/metrics.js';
import { usageRecordListener } from './image-job/listeners/usage-record.js';
import { usageTotalsListener } from './image-job/listeners/usage-totals.js';
import { presentImage, type PresentDeps } from './image-job/present.js';
import { makeExpression, type ExpressionDeps, type ExpressionOrder } from './expressions.js';
import type { MemberActions } from './member-actions.js';
import type { AddedExpression, GuildExpressions } from '../ports/guild-expressions.js';
import type { FavoritesStore } from '../ports/favorites-store.js';
import { Favorites } from './favorites.js';
import { runImageJob } from './image-job/runner.js';
import { SettledJobs } from './image-job/settled-event.js';
import type { RunnerDeps } from './image-job/settle.js';

export type { HoldDeps, JobRules, ListenerDeps, ProduceDeps };

/** Options for {@link ImageService}: the gateway, and what each step of a job needs, grouped by step. */
export interface ImageServiceOptions {
  gateway: ImageGateway;
  logger: Logger;
  /** @default the system clock */
  clock?: Clock | undefined;
  /** Jobs another process claimed while this one looked dead: stopped where they are (claimed-jobs.ts). */
  claims?: ClaimedJobs | undefined;
  /** The rules checked before anything is held; without them, the defaults and no features beyond the images. */
  rules?: JobRules | undefined;
  /** The ledger, journal and lease a job holds while it runs. */
  holds: HoldDeps;
  /** The queue, downloads, memory, gateway call and files. */
  produce: ProduceDeps;
  /** The bookkeeping told of each settled job; each one absent keeps nothing of its kind. */
  listeners?: ListenerDeps | undefined;
  /** Where ⭐ keeps members' favorites and the showcase's posts; without it, there are no favorites. */
  favorites?: FavoritesStore | undefined;
  /** Counts emoji, stickers and showcase posts in /usage and tells them to the audit channel. */
  actions?: Pick<MemberActions, 'record'> | undefined;
}

/** Runs image jobs; see the module comment. */
export class ImageService {
  private readonly deps: RunnerDeps;
  private readonly presenting: PresentDeps;
  private readonly expressions: ExpressionDeps;
  private readonly actions: Pick<MemberActions, 'record'> | undefined;
  /** ⭐: members' favorites and the servers' showcases (favorites.ts), over the same downloads, memory and line. */
  readonly favorites: Favorites | undefined;

  constructor(options: ImageServiceOptions) {
    const steps = resolveJobDeps(options, { rules: options.rules ?? {}, holds: options.holds, produce: options.produce });
    const listeners = options.listeners ?? {};
    this.deps = { ...steps, settled: settledJobs(listeners) };
    this.presenting = { ...steps, archive: listeners.archive };
    this.expressions = { produce: steps.produce, log: steps.log, moderation: steps.rules.moderation };
    const { produce, clock, rules } = steps;
    this.actions = options.actions;
    const favorites = { settings: rules.settings, produce, clock, logger: options.logger, actions: options.actions };
    this.favorites = options.favorites && new Favorites({ store: options.favorites, ...favorites });
  }

  /**
   * Runs a job to the end. Member-facing failures are thrown as UserFacingError after the quota was refunded; the
   * caller (the router's error boundary) answers them.
   */
  run(job: ImageJob, responder: Responder): Promise<void> {
    return runImageJob(this.deps, job, responder);
  }

  /**
   * Posts `ref`, one image of an earlier result, as a card of its own with the actions on it (U1…): no gateway call
   * and nothing charged. It is downloaded like a reference (host allow-list, declared size, the memory budget).
   */
  present(job: ImageJob, ref: AttachmentRef, responder: Responder): Promise<void> {
    return presentImage(this.presenting, job, ref, responder);
  }

  /**
   * Makes one image of a result into an emoji or a sticker and adds it to the server through `target`, in the
   * member's line, nothing charged (expressions.ts).
   */
  async expression(order: ExpressionOrder, target: GuildExpressions): Promise<AddedExpression> {
    const added = await makeExpression(this.expressions, order, target);
    const { guildId, userId, kind: action, guildLocale: locale } = order;
    await this.actions?.record({ guildId, userId, action, name: added.name, locale });
    return added;
  }
}

/** The listeners of settled jobs, in the order the bookkeeping was done before it listened. */
function settledJobs({ usage, archive, history, metrics, totals, audit }: ListenerDeps): SettledJobs {
  const settled = new SettledJobs();
  if (usage) settled.subscribe(usageRecordListener(usage));
  if (archive) settled.subscribe(archiveListener(archive));
  if (history) settled.subscribe(historyListener(history));
  if (metrics) settled.subscribe(metricsListener(metrics));
  if (totals) settled.subscribe(usageTotalsListener(totals));
  if (audit) settled.subscribe(auditListener(audit));
  return settled;
}
