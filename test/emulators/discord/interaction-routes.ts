/**
 * Interaction routes: the initial callback (POST /interactions/{id}/{token}/callback) and the interaction webhook
 * (follow-ups and @original / {id} edits), with the 3 s / 15 min rules measured on the emulator clock.
 */
import type { InteractionRecord } from './handle.js';
import { callbackBody, messageBody, type RestRequest, type Route, toRecorded } from './http.js';
import { IS_COMPONENTS_V2 } from './components-v2.js';
import { checkCallback, checkMessage, EPHEMERAL, Errors, isEmptyMessage, LOADING, type RestResult } from './rules.js';
import { refuseNewUploadReference } from './quirks.js';
import type { EmulatorState } from './state.js';
import type { EmulatedMessage } from './types.js';

export function interactionRoutes(state: EmulatorState): Route[] {
  const webhook = (
    method: string,
    pattern: RegExp,
    handle: (rec: InteractionRecord, req: RestRequest, target?: string) => RestResult,
    list: 'edits' | 'followUps',
  ): Route => ({
    method,
    pattern,
    auth: 'none',
    handle: (req, [app = '', token = '', target]) => {
      const rec = [...state.interactions.values()].find((r) => r.token === token);
      const refused = app === state.applicationId ? checkToken(state, rec, req.clockAt) : Errors.unknownWebhook();
      return refused ?? handle(rec!, req, target);
    },
    record: (req, [, token], result) => {
      const rec = [...state.interactions.values()].find((r) => r.token === token);
      rec?.[list].push(toRecorded(req, result));
      rec?.notify();
    },
  });
  const message = /^\/webhooks\/(\d+)\/([^/]+)\/messages\/(@original|\d+)$/;
  return [
    {
      method: 'POST',
      pattern: /^\/interactions\/(\d+)\/([^/]+)\/callback$/,
      auth: 'none',
      handle: (req, [id = '', token]) => callback(state, req, state.interactions.get(id), token),
      record: (req, [id = ''], result) => {
        const rec = state.interactions.get(id);
        if (!rec) return;
        const { status, errorCode, receivedAt, files } = toRecorded(req, result);
        const body = callbackBody(req);
        rec.acks.push({ type: Number(body?.type), body, flags: body?.data?.flags, receivedAt, status, errorCode, files });
        rec.notify();
      },
    },
    webhook('POST', /^\/webhooks\/(\d+)\/([^/]+)$/, (rec, req) => followUp(state, rec, req), 'followUps'),
    webhook('PATCH', message, (rec, req, target) => editMessage(state, rec, req, target), 'edits'),
    webhook('GET', message, (rec, _req, target) => withMessage(state, rec, target, (id) => served(state, state.messages.messages.get(id))), 'edits'),
    webhook('DELETE', message, (rec, _req, target) => withMessage(state, rec, target, (id) => (state.messages.delete(id), { status: 204 })), 'edits'),
  ];
}

function callback(state: EmulatorState, req: RestRequest, rec: InteractionRecord | undefined, token: string | undefined): RestResult {
  if (!rec || rec.token !== token) return Errors.unknownInteraction();
  if (rec.ackedType !== undefined) return Errors.alreadyAcknowledged();
  // Past the deadline Discord invalidates the interaction: the late ack is "unknown" (§1.3).
  if (req.clockAt - rec.issuedAt > state.options.ackDeadlineMs) return Errors.unknownInteraction();
  const body = callbackBody(req) ?? {};
  const type = Number(body.type);
  const data = body.data;
  const rejected =
    checkCallback(rec.kind, rec.fromComponent, body) ?? (type === 4 || type === 7 ? checkMessage(data, req.files, rec.attachmentSizeLimit) : undefined);
  if (rejected) return rejected;
  if (type === 4 && isEmptyMessage(data, req.files)) return Errors.emptyMessage();
  let messageId: string | undefined;
  if (type === 4 || type === 5) {
    const flags = type === 5 ? LOADING | ((data?.flags ?? 0) & EPHEMERAL) : (data?.flags ?? 0);
    const created = state.messages.create({ ...responseMessage(state, rec), payload: type === 5 ? {} : data, files: req.files, flags });
    if (!('id' in created)) return created;
    messageId = created.id;
  } else if (type === 6 || type === 7) {
    messageId = rec.sourceMessageId;
    if (type === 7 && messageId !== undefined) {
      const edited = state.messages.edit(messageId, data, req.files, editRefusal(state));
      if (!('id' in edited)) return edited;
    }
  }
  rec.ackedType = type;
  rec.originalMessageId = messageId;
  if (messageId !== undefined) rec.messageIds.add(messageId);
  if (req.query.get('with_response') !== 'true') return { status: 204 };
  return { status: 200, body: callbackResponse(state, rec, type, messageId) };
}

function callbackResponse(state: EmulatorState, rec: InteractionRecord, type: number, messageId: string | undefined): unknown {
  const message = messageId === undefined ? undefined : state.messages.messages.get(messageId);
  const flags = message?.flags ?? 0;
  return {
    interaction: {
      id: rec.id,
      type: rec.kind,
      ...(message
        ? { response_message_id: message.id, response_message_loading: (flags & LOADING) !== 0, response_message_ephemeral: (flags & EPHEMERAL) !== 0 }
        : {}),
    },
    resource: { type, ...(message ? { message: state.served(message) } : {}) },
  };
}

/** The token is usable once acknowledged and for tokenLifetimeMs after dispatch; a missed deadline invalidates it. */
function checkToken(state: EmulatorState, rec: InteractionRecord | undefined, now: number): RestResult | undefined {
  if (!rec) return Errors.invalidWebhookToken();
  const age = now - rec.issuedAt;
  if (age > state.options.tokenLifetimeMs) return Errors.invalidWebhookToken();
  if (rec.ackedType === undefined) return age > state.options.ackDeadlineMs ? Errors.invalidWebhookToken() : Errors.unknownWebhook();
  return undefined;
}

/**
 * A follow-up creates a new message, except while a type-5 defer's "thinking" message is still loading: real Discord
 * then edits that message instead, ignoring the ephemeral flag (doc §1.5, deprecated but live; the
 * `followUpEditsLoading` quirk), and such an edit meets #7529 like any other.
 */
function followUp(state: EmulatorState, rec: InteractionRecord, req: RestRequest): RestResult {
  const payload = messageBody(req);
  const rejected = checkMessage(payload, req.files, rec.attachmentSizeLimit);
  if (rejected) return rejected;
  if (isEmptyMessage(payload, req.files)) return Errors.emptyMessage();
  const loading = rec.originalMessageId === undefined ? undefined : state.messages.messages.get(rec.originalMessageId);
  if (state.options.quirks.followUpEditsLoading && rec.ackedType === 5 && loading && ((loading.flags ?? 0) & LOADING) !== 0) {
    const edited = state.messages.edit(loading.id, { ...payload, flags: (payload?.flags ?? 0) & ~EPHEMERAL }, req.files, editRefusal(state));
    return 'id' in edited ? served(state, edited) : edited;
  }
  const created = state.messages.create({
    ...responseMessage(state, rec),
    payload,
    files: req.files,
    flags: (payload?.flags ?? 0) & (EPHEMERAL | IS_COMPONENTS_V2),
  });
  if (!('id' in created)) return created;
  rec.messageIds.add(created.id);
  return served(state, created);
}

function editMessage(state: EmulatorState, rec: InteractionRecord, req: RestRequest, target: string | undefined): RestResult {
  return withMessage(state, rec, target, (id) => {
    const payload = messageBody(req);
    const rejected = checkMessage(payload, req.files, rec.attachmentSizeLimit);
    if (rejected) return rejected;
    const edited = state.messages.edit(id, payload, req.files, editRefusal(state));
    return 'id' in edited ? served(state, edited) : edited;
  });
}

/** #7529 on message edits, while the quirk is on. */
function editRefusal(state: EmulatorState): typeof refuseNewUploadReference | undefined {
  return state.options.quirks.cv2EditUploads ? refuseNewUploadReference : undefined;
}

/** A 200 carrying a message as Discord serves it. */
function served(state: EmulatorState, message: EmulatedMessage | undefined): RestResult {
  return { status: 200, body: message && state.served(message) };
}

function withMessage(state: EmulatorState, rec: InteractionRecord, target: string | undefined, act: (id: string) => RestResult): RestResult {
  const id = target === '@original' ? rec.originalMessageId : target;
  if (id === undefined || !rec.messageIds.has(id) || !state.messages.messages.has(id)) return Errors.unknownMessage();
  return act(id);
}

function responseMessage(state: EmulatorState, rec: InteractionRecord) {
  const payload = rec.payload as { member?: { user?: unknown }; user?: unknown; authorizing_integration_owners?: unknown };
  return {
    channelId: rec.channelId,
    author: state.botUser,
    type: rec.responseType,
    extra: {
      webhook_id: state.applicationId,
      application_id: state.applicationId,
      interaction_metadata: {
        id: rec.id,
        type: rec.kind,
        user: payload.member?.user ?? payload.user,
        authorizing_integration_owners: payload.authorizing_integration_owners ?? {},
      },
    },
  };
}
