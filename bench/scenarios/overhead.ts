/**
 * Overhead: with a fixed gateway delay L, dispatch → final edit (fully received) minus L, one request at a time,
 * for one 1024x1024 PNG and for four 1536x1024 PNGs. Next to it, the reference the target is set against: decoding
 * the four images' base64 and uploading their bytes once in one multipart PATCH (measured with no bot running).
 */
import { performance } from 'node:perf_hooks';
import { fetch, FormData } from 'undici';
import type { BotKind } from '../bot-host.js';
import { withSession, type Session } from '../session.js';
import { round, summarize } from '../stats.js';
import { compare, ourEnv, sqliteUrl, type Compared, type Figures } from './common.js';

export interface OverheadParams {
  delayMs: number;
  oneImage: number;
  fourImages: number;
  referenceRuns: number;
}

export interface OverheadResult extends Compared {
  params: OverheadParams;
  /** Decode + upload of the four images once (ms), and the gateway answer's transfer + JSON parse beyond L. */
  reference: Figures;
}

const ONE = { size: '1024x1024', n: 1 };
const FOUR = { size: '1536x1024', n: 4 };

function overheadFigures(values: (number | null)[], delayMs: number, prefix: string): Figures {
  const s = summarize(values.filter((v): v is number => v !== null).map((v) => v - delayMs));
  return { [`${prefix}P50`]: round(s.p50), [`${prefix}P99`]: round(s.p99), [`${prefix}Failed`]: values.filter((v) => v === null).length };
}

async function once(kind: BotKind, p: OverheadParams, before?: (s: Session) => Promise<void>): Promise<Figures> {
  const env = ourEnv({ STORAGE_URL: sqliteUrl() });
  return withSession({ bot: kind, env, gateway: { imageStyle: 'textured', delayMs: p.delayMs }, warm: [ONE, FOUR] }, async (s) => {
    await before?.(s);
    const run = (count: number, shape: { size: string; n: number }) =>
      s.load({ count, members: 4, spreadMs: 0, sequential: true, timeoutMs: 60_000, ...shape });
    const one = await run(p.oneImage, ONE);
    const four = await run(p.fourImages, FOUR);
    return {
      ...overheadFigures(
        one.map((x) => x.final),
        p.delayMs,
        'oneImage',
      ),
      ...overheadFigures(
        four.map((x) => x.final),
        p.delayMs,
        'fourImages',
      ),
    };
  });
}

/**
 * Base64-decodes four images and PATCHes their bytes once, `runs` times, from this (otherwise idle) process, on
 * interactions of a command the baseline ignores; runs in the baseline's session before its load.
 */
async function reference(s: Session, p: OverheadParams): Promise<Figures> {
  {
    const a = s.addresses;
    const fetchTimes: number[] = [];
    let b64: string[] = [];
    // The first answer renders the images (discarded); the next ones show the emulator's own cost beyond L.
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const res = await fetch(`${a.gatewayBaseUrl}/images/generations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.gatewayApiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-image-1', prompt: 'reference', n: FOUR.n, size: FOUR.size }),
      });
      const body = (await res.json()) as { data: { b64_json: string }[] };
      if (i > 0) fetchTimes.push(performance.now() - t0 - p.delayMs);
      b64 = body.data.map((d) => d.b64_json);
    }
    // The same for one 1024x1024 image: the floor under the one-image overhead that is the emulator's, not the bot's.
    const oneTimes: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const res = await fetch(`${a.gatewayBaseUrl}/images/generations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.gatewayApiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-image-1', prompt: 'reference', n: ONE.n, size: ONE.size }),
      });
      await res.json();
      oneTimes.push(performance.now() - t0 - p.delayMs);
    }
    const minted = await s.discord.call<{ id: string; token: string }[]>('mint', { count: p.referenceRuns });
    const decode: number[] = [];
    const total: number[] = [];
    let bytes = 0;
    for (const { id, token } of minted) {
      const ack = await fetch(`${a.discordApiUrl}/v10/interactions/${id}/${token}/callback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 5 }),
      });
      await ack.arrayBuffer();
      const t0 = performance.now();
      const buffers = b64.map((s64) => Buffer.from(s64, 'base64'));
      const t1 = performance.now();
      const form = new FormData();
      form.append('payload_json', JSON.stringify({ content: 'reference', attachments: buffers.map((_, i) => ({ id: i, filename: `image-${i + 1}.png` })) }));
      buffers.forEach((buf, i) => form.append(`files[${i}]`, new Blob([buf], { type: 'image/png' }), `image-${i + 1}.png`));
      const res = await fetch(`${a.discordApiUrl}/v10/webhooks/${a.applicationId}/${token}/messages/@original`, { method: 'PATCH', body: form });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`reference upload answered ${res.status}`);
      total.push(performance.now() - t0);
      decode.push(t1 - t0);
      bytes = buffers.reduce((sum, b) => sum + b.length, 0);
    }
    return {
      decodeAndUploadP50: round(summarize(total).p50),
      decodeP50: round(summarize(decode).p50),
      gatewayTransferAndParseP50: round(summarize(fetchTimes).p50),
      gatewayTransferAndParseOneImageP50: round(summarize(oneTimes).p50),
      fourImagesMegabytes: round(bytes / 1e6, 2),
    };
  }
}

export async function overhead(p: OverheadParams): Promise<OverheadResult> {
  let ref: Figures = {};
  const baseline = await once('baseline', p, async (s) => {
    ref = await reference(s, p);
  });
  const ours = await once('ours', p);
  return { params: p, reference: ref, ...compare(ours, baseline) };
}
