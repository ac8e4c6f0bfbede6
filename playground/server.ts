/**
 * `npm run playground`'s server: the real bot (src/main.ts's startBot, as `npm start` runs it, through the e2e harness)
 * against the Discord and gateway emulators, and a page on loopback that shows the server's channels live and sends
 * what a person does there to the bot as Discord would. The gateway lists flux-schnell beside the default models, with
 * a profile that gives it seeds, so the `seed` option can be tried.
 *
 * Routes: `GET /` the page, `/app.js` its script, `/fonts/*` the emoji font; `GET /api/setup` the commands, members,
 * roles, channels and locales; `GET /api/events` the live channel (server-sent events); `POST /api/command`,
 * `/api/component`, `/api/modal`, `/api/message-command` dispatch an interaction and answer `{ interactionId }`;
 * `POST /api/autocomplete` answers the bot's choices for the option being typed.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import { startHarness, type Harness, type HarnessOptions } from '../test/e2e/harness.js';
import { CREATE_GUILD_EXPRESSIONS, type InteractionHandle } from '../test/emulators/discord/index.js';
import { Permissions } from '../test/emulators/discord/fixtures.js';
import { DEFAULT_MODELS } from '../test/emulators/gateway/index.js';
import { emojiFontSubsets } from '../demo/transcript-font.js';
import {
  AutocompleteRequestSchema,
  CommandRequestSchema,
  ComponentRequestSchema,
  MessageCommandRequestSchema,
  ModalRequestSchema,
  PlaygroundRequestError,
  playgroundActions,
} from './actions.js';
import { LiveChannel, type LiveEvent } from './live-channel.js';
import { playgroundPage } from './page.js';
import { playgroundSetup } from './setup.js';

/** Options for {@link startPlayground}. */
export interface PlaygroundOptions {
  /** The page's port on 127.0.0.1; 0 picks a free one. */
  readonly port: number;
  /** Overrides of the harness settings (a test makes the gateway fast). */
  readonly harness?: HarnessOptions | undefined;
}

/** A running playground. */
export interface Playground {
  /** `http://127.0.0.1:PORT/`. */
  readonly url: string;
  readonly harness: Harness;
  /** Every interaction the page dispatched, oldest first (what Discord sent the bot: who, which roles, which language). */
  interactions(): readonly InteractionHandle[];
  /** Stops the page's server, the bot and both emulators. */
  close(): Promise<void>;
}

/** Uploads ride in the JSON as base64: ten files of Discord's default 20 MiB limit, and some. */
const MAX_BODY_BYTES = 300 * 1024 * 1024;

/** A model with seeds beside the default ones: its profile (the operator's MODEL_PROFILES_FILE) turns seeds on. */
const SEEDED_MODEL = 'flux-schnell';

export async function startPlayground(options: PlaygroundOptions): Promise<Playground> {
  // The profiles file lives in a folder of its own, removed when the playground stops.
  const profilesDir = mkdtempSync(join(tmpdir(), 'imagine-playground-'));
  const profiles = join(profilesDir, 'model-profiles.json');
  writeFileSync(profiles, JSON.stringify({ 'flux-*': { seeds: true } }));
  const harness = await startHarness({
    ...options.harness,
    // Progress the page can watch: partial images, a redraw of the reply every 400 ms, a gateway that takes a moment.
    env: { GATEWAY_PARTIAL_IMAGES: '1', PROGRESS_INTERVAL_MS: '400', MODEL_PROFILES_FILE: profiles, ...options.harness?.env },
    gateway: { delayMs: 1_200, imageStyle: 'illustrated', models: [...DEFAULT_MODELS, SEEDED_MODEL], ...options.harness?.gateway },
  }).catch((err: unknown) => {
    rmSync(profilesDir, { recursive: true, force: true });
    throw err;
  });
  // The bot may add the server's emoji and stickers here (Make emoji, Make sticker); members need the permission too.
  harness.discord.setBotPermissions(harness.discord.fixtures.guild.id, Permissions.everyone | CREATE_GUILD_EXPRESSIONS);
  const live = new LiveChannel(harness);
  const actions = playgroundActions(harness, (handle) => live.track(handle));
  const fonts = new Map(emojiFontSubsets().map((subset) => [subset.file, subset.path]));
  const script = readFileSync(new URL('./public/app.js', import.meta.url));
  const streams = new Set<ServerResponse>();

  const post =
    <T>(schema: z.ZodType<T>, run: (body: T) => { id: string }) =>
    async (req: IncomingMessage, res: ServerResponse) => {
      const parsed = schema.safeParse(JSON.parse((await readBody(req)).toString('utf8')));
      if (parsed.success) json(res, 200, { interactionId: run(parsed.data).id });
      else json(res, 400, { error: parsed.error.message });
    };
  const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => unknown> = {
    'GET /': (_req, res) => send(res, 200, 'text/html; charset=utf-8', playgroundPage()),
    'GET /app.js': (_req, res) => send(res, 200, 'text/javascript; charset=utf-8', script),
    'GET /api/setup': (_req, res) => json(res, 200, playgroundSetup(harness)),
    'GET /api/events': (req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      const write = (event: LiveEvent) => res.write(`data: ${JSON.stringify(event)}\n\n`);
      for (const event of live.current()) write(event);
      res.write(`data: ${JSON.stringify({ type: 'ready' })}\n\n`);
      const unsubscribe = live.subscribe(write);
      streams.add(res);
      req.on('close', () => {
        unsubscribe();
        streams.delete(res);
      });
    },
    'POST /api/command': post(CommandRequestSchema, (body) => actions.command(body)),
    'POST /api/autocomplete': async (req, res) => {
      const parsed = AutocompleteRequestSchema.safeParse(JSON.parse((await readBody(req)).toString('utf8')));
      if (parsed.success) json(res, 200, { choices: await actions.autocomplete(parsed.data) });
      else json(res, 400, { error: parsed.error.message });
    },
    'POST /api/component': post(ComponentRequestSchema, (body) => actions.component(body)),
    'POST /api/modal': post(ModalRequestSchema, (body) => actions.modal(body)),
    'POST /api/message-command': post(MessageCommandRequestSchema, (body) => actions.messageCommand(body)),
  };

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const font = req.method === 'GET' && path.startsWith('/fonts/') ? fonts.get(path.slice('/fonts/'.length)) : undefined;
    const handler = font === undefined ? routes[`${req.method ?? 'GET'} ${path}`] : (_: IncomingMessage, r: ServerResponse) => sendFont(r, font);
    if (!handler) {
      send(res, 404, 'text/plain', 'not found');
      return;
    }
    Promise.resolve(handler(req, res)).catch((err: unknown) => {
      const known = err instanceof PlaygroundRequestError || err instanceof SyntaxError;
      if (!res.headersSent) json(res, known ? 400 : 500, { error: err instanceof Error ? err.message : String(err) });
      if (!known) process.stderr.write(`playground: ${req.method} ${path} failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    });
  });
  try {
    await listen(server, options.port);
  } catch (err) {
    // The port is taken (or not ours to use): stop what started before saying so.
    live.close();
    await harness.close();
    rmSync(profilesDir, { recursive: true, force: true });
    throw err;
  }
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/`,
    harness,
    interactions: () => live.tracked(),
    close: async () => {
      for (const stream of streams) stream.end();
      live.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await harness.close();
      rmSync(profilesDir, { recursive: true, force: true });
    },
  };
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new PlaygroundRequestError(`a request over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, 'application/json', JSON.stringify(body));
}

function sendFont(res: ServerResponse, path: string): void {
  res.writeHead(200, { 'content-type': 'font/woff2', 'cache-control': 'max-age=86400' });
  res.end(readFileSync(path));
}
