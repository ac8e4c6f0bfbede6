/**
 * The loopback HTTP server: reads and records every request, checks auth, and routes to the models list, the
 * image endpoints, chat completions and the /files/ downloads.
 */
import { performance } from 'node:perf_hooks';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { sendAnswer, sendPreset, runBehaviour } from './behaviours.js';
import type { PresetContext } from './error-presets.js';
import { handleImagePost, parseImageBody } from './image-endpoint.js';
import { modelsBody } from './models.js';
import { createRequestId } from './request-ids.js';
import { proxiedHeaders } from './cloudflare.js';
import { isChatPost, isImagePost, polledOn, taskPollOf, type EmulatorState } from './state.js';
import { handleChatPost, parseChatBody } from './chat-endpoint.js';
import { pollAnswer, unknownTaskAnswer } from './tasks.js';
import { handleAzure } from './dialects/azure.js';
import { handleOpenRouter } from './dialects/openrouter.js';
import type { RecordedRequest } from './types.js';

/** Creates (not yet listening) the emulator's HTTP server. */
export function createGatewayServer(state: EmulatorState): Server {
  const server = createServer({ keepAlive: true }, (req, res) => {
    handle(state, req, res).catch((err: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const message = `emulator internal error: ${err instanceof Error ? err.message : String(err)}`;
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message, type: 'emulator_error', param: null, code: null } }));
    });
  });
  // Idle sockets stay open for the whole test (close() destroys them), so a client reusing one never races the
  // server's idle timer into an ECONNRESET.
  server.keepAliveTimeout = 60_000;
  return server;
}

async function handle(state: EmulatorState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const receivedAt = Date.now();
  const arrivedAt = performance.now();
  const requestId = createRequestId(state.settings.requestIdHeader);
  res.setHeader(state.settings.requestIdHeader, requestId);
  if (state.settings.cloudflare) for (const [name, value] of Object.entries(proxiedHeaders(requestId))) res.setHeader(name, value);
  const { body, tooLarge } = await readBody(req, state.settings.maxBodyBytes);
  const record: RecordedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: flattenHeaders(req), receivedAt, specErrors: [] };
  const path = record.path.split('?')[0] ?? '';
  const presetCtx: PresetContext = { requestId, model: '', param: 'response_format', size: '' };

  if (tooLarge) {
    state.record(record);
    return sendPreset(res, 'body_too_large', state.settings.lang, presetCtx, { connection: 'close' });
  }
  // Another API than OpenAI's: its module answers every route (README "Dialects").
  if (state.settings.dialect === 'azure') return handleAzure(state, { req, res, record, body, presetCtx, arrivedAt });
  if (state.settings.dialect === 'openrouter') return handleOpenRouter(state, { req, res, record, body, presetCtx, arrivedAt });
  if (isImagePost(record)) {
    await parseImageBody(record, body);
    state.record(record);
    // The gateway's time (its delay) runs from arrival, or from a hold's release: the emulator's own parsing and
    // validation are not added on top of it.
    const startedAt = (await state.passHold(record)) ?? arrivedAt;
    if (!authorised(state, req, res, presetCtx)) return;
    return handleImagePost(state, record, res, presetCtx, startedAt);
  }
  if (isChatPost(record)) {
    parseChatBody(record, body);
    state.record(record);
    if (!authorised(state, req, res, presetCtx)) return;
    return handleChatPost(state, record, res, presetCtx, arrivedAt);
  }
  state.record(record);
  if (record.method === 'GET' && path.startsWith('/files/')) return serveFile(state, path.slice('/files/'.length), res);
  const poll = taskPollOf(record);
  if (poll) {
    if (!authorised(state, req, res, presetCtx)) return;
    const task = state.tasks.get(poll.id);
    const success = { images: state.images, files: state, style: state.settings.imageStyle };
    return sendAnswer(res, task && polledOn(task.kind, poll.kind) ? await pollAnswer(task, success) : unknownTaskAnswer(poll.kind));
  }
  if (record.method === 'GET' && path === '/v1/models') {
    if (!authorised(state, req, res, presetCtx)) return;
    const behaviour = state.modelsQueue.shift() ?? { type: 'success' };
    const text = modelsBody(state.settings.models, state.settings.modelsShape, state.settings.shutdownDates);
    return runBehaviour(behaviour, res, {
      preset: presetCtx,
      startedAt: arrivedAt,
      defaultDelayMs: 0,
      sleep: (ms) => state.sleep(ms),
      success: async () => ({ status: 200, headers: { 'content-type': 'application/json' }, frames: [text] }),
      streams: () => false,
      takeBodyHold: () => undefined,
    });
  }
  // one-api's NoRoute answer (image-gateway.md §4.1 Routes).
  const message = `Invalid URL (${record.method} ${path})`;
  return sendAnswer(res, {
    status: 404,
    headers: { 'content-type': 'application/json' },
    frames: [JSON.stringify({ error: { message, type: 'invalid_request_error', param: '', code: '' } })],
  });
}

/** Checks the bearer key; answers 401 (one-api/new-api style) and returns false when it is wrong or missing. */
function authorised(state: EmulatorState, req: IncomingMessage, res: ServerResponse, ctx: PresetContext): boolean {
  const header = req.headers.authorization ?? '';
  const key = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim();
  if (key === state.settings.apiKey) return true;
  if (key === undefined || key === '') {
    // The invalid_key preset says "invalid token"; a missing key says "token not provided" (model/token.go).
    const message = state.settings.lang === 'zh' ? '未提供令牌' : 'Token not provided';
    const type = state.settings.lang === 'zh' ? 'one_api_error' : 'new_api_error';
    const error = { message: `${message} (request id: ${ctx.requestId})`, type, ...(state.settings.lang === 'zh' ? {} : { code: '' }) };
    void sendAnswer(res, { status: 401, headers: { 'content-type': 'application/json' }, frames: [JSON.stringify({ error })] });
    return false;
  }
  void sendPreset(res, 'invalid_key', state.settings.lang, ctx);
  return false;
}

async function serveFile(state: EmulatorState, name: string, res: ServerResponse): Promise<void> {
  const file = state.files.get(name);
  if (file?.expiresAt !== undefined && Date.now() >= file.expiresAt) {
    // What object storage (S3, R2) answers for a signed link past its expiry.
    const body = '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>';
    return sendAnswer(res, { status: 403, headers: { 'content-type': 'application/xml' }, frames: [body] });
  }
  if (!file) {
    const error = { message: 'Not Found', type: 'invalid_request_error', param: null, code: 'file_not_found' };
    return sendAnswer(res, { status: 404, headers: { 'content-type': 'application/json' }, frames: [JSON.stringify({ error })] });
  }
  return sendAnswer(res, { status: 200, headers: { 'content-type': file.contentType }, frames: [file.bytes] });
}

/** Reads the whole body; past `limit` bytes it keeps draining but stops buffering. */
async function readBody(req: IncomingMessage, limit: number): Promise<{ body: Buffer; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer | string>) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    size += buffer.length;
    if (size <= limit) chunks.push(buffer);
  }
  return { body: Buffer.concat(chunks), tooLarge: size > limit };
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
