/**
 * Burst: `count` /imagine from `members` members within `spreadMs`, SQLite storage, gateway delay 2 s. The figure
 * is the acknowledgement latency: INTERACTION_CREATE written to the bot's socket → the deferred ack received.
 */
import type { BotKind } from '../bot-host.js';
import { withSession } from '../session.js';
import { compare, completed, latency, ourEnv, sqliteUrl, type Compared, type Figures } from './common.js';

export interface BurstParams {
  count: number;
  members: number;
  spreadMs: number;
  delayMs: number;
}

export interface BurstResult extends Compared {
  params: BurstParams;
}

async function once(kind: BotKind, p: BurstParams): Promise<Figures> {
  const perMember = String(Math.ceil(p.count / p.members));
  const env = ourEnv({ STORAGE_URL: sqliteUrl(), MAX_CONCURRENT_JOBS: String(p.count), MAX_RUNNING_PER_MEMBER: perMember });
  return withSession({ bot: kind, env, gateway: { imageStyle: 'textured', delayMs: p.delayMs }, warm: [{ size: '1024x1024', n: 1 }] }, async (s) => {
    const samples = await s.load({ count: p.count, members: p.members, spreadMs: p.spreadMs, sequential: false, size: '1024x1024', n: 1, timeoutMs: 60_000 });
    const acks = samples.map((x) => x.ack);
    return {
      ...latency(acks, 'ack'),
      acksOver3s: acks.filter((a) => a === null || a > 3000).length,
      completed: completed(samples),
      ...latency(
        samples.map((x) => x.final),
        'endToEnd',
      ),
    };
  });
}

export async function burst(p: BurstParams): Promise<BurstResult> {
  const baseline = await once('baseline', p);
  const ours = await once('ours', p);
  return { params: p, ...compare(ours, baseline) };
}
