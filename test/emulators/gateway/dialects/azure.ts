/**
 * The Azure OpenAI dialect of the emulator (README "Dialects"): a resource at the emulator's origin whose
 * deployments serve the catalogue's models. Deployment paths `/openai/deployments/{name}/images/{generations,edits}`
 * and `/chat/completions` need `?api-version=` (without it Azure answers 404 "Resource not found",
 * MicrosoftDocs/azure-docs#114602; edits only from 2025-04-01-preview, the first version that has them); the
 * `/openai/v1/` base takes OpenAI's paths with the deployment in `model` and no version. The key goes in `api-key`.
 * An unknown deployment answers 404 DeploymentNotFound (chatboxai/chatbox#646). A prompt with a filtered term
 * answers 400 `content_filter` with `innererror.content_filter_result`, the shape Azure sends; after
 * `blockAfterFilterHits` of them the whole resource answers 403 to everything, as Azure blocks a resource for
 * repeated abuse (pollinations/pollinations#8847, #12083). Past those checks the request is the OpenAI pipeline's
 * (image-endpoint.ts, chat-endpoint.ts) for the deployment's model.
 */
import { sendAnswer } from '../behaviours.js';
import { handleChatPost, parseChatBody } from '../chat-endpoint.js';
import { handleImagePost, parseImageBody } from '../image-endpoint.js';
import { answerModels, type DialectRequest } from './common.js';
import type { EmulatorState } from '../state.js';
import type { RecordedRequest } from '../types.js';

/** Options of the Azure resource (`startGatewayEmulator({ dialect: 'azure', azure })`). */
export interface AzureEmulatorOptions {
  /** Deployment name → the model it serves. @default each model of `models` under its own name */
  deployments?: Readonly<Record<string, string>> | undefined;
  /** api-versions the deployment paths accept. @default 2024-10-21, 2025-04-01-preview */
  apiVersions?: readonly string[] | undefined;
  /** Words the content filter refuses a prompt for (case-insensitive). @default ['gore', 'massacre'] */
  contentFilterTerms?: readonly string[] | undefined;
  /** Filtered prompts after which the resource is blocked (403 to every request). @default 10 */
  blockAfterFilterHits?: number | undefined;
}

/** The first version with image edits (gpt-image-1). */
const EDITS_FROM = '2025-04-01';

type Route = { kind: 'image'; endpoint: 'generations' | 'edits'; deployment?: string } | { kind: 'chat'; deployment?: string } | { kind: 'models' };

function routeOf(method: string, path: string): { route: Route; v1: boolean } | undefined {
  const deployed = /^\/openai\/deployments\/([^/]+)\/(images\/(generations|edits)|chat\/completions)$/.exec(path);
  if (method === 'POST' && deployed) {
    const deployment = decodeURIComponent(deployed[1] ?? '');
    const endpoint = deployed[3] as 'generations' | 'edits' | undefined;
    return { route: endpoint ? { kind: 'image', endpoint, deployment } : { kind: 'chat', deployment }, v1: false };
  }
  const v1 = /^\/openai\/v1\/(images\/(generations|edits)|chat\/completions)$/.exec(path);
  if (method === 'POST' && v1) {
    const endpoint = v1[2] as 'generations' | 'edits' | undefined;
    return { route: endpoint ? { kind: 'image', endpoint } : { kind: 'chat' }, v1: true };
  }
  if (method === 'GET' && (path === '/openai/models' || path === '/openai/v1/models')) return { route: { kind: 'models' }, v1: path.startsWith('/openai/v1') };
  return undefined;
}

/** Azure's error body: `{"error":{"code","message"}}` (no request-id suffix: the id is in `x-request-id`). */
function azureError(status: number, code: string, message: string, extra: Record<string, unknown> = {}) {
  return { status, headers: { 'content-type': 'application/json' }, frames: [JSON.stringify({ error: { code, message, ...extra } })] };
}

const NOT_FOUND = azureError(404, '404', 'Resource not found');

/** The model behind a deployment name, or undefined. */
function modelOf(state: EmulatorState, deployment: string): string | undefined {
  const deployments = state.settings.azure.deployments;
  return deployments ? deployments[deployment] : state.settings.models.includes(deployment) ? deployment : undefined;
}

/** What Azure refuses before the model sees the request: the key, the version, the deployment, a blocked resource. */
function refusal(state: EmulatorState, x: DialectRequest, route: Route, v1: boolean, url: URL) {
  if (x.req.headers['api-key'] !== state.settings.apiKey)
    return azureError(
      401,
      '401',
      'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
    );
  if (state.azureFilterHits >= state.settings.azure.blockAfterFilterHits)
    return azureError(
      403,
      'Forbidden',
      'Your resource has been temporarily blocked because we detected behavior that may violate our content policy. For more details on Azure OpenAI service content policy, please visit https://aka.ms/aoaicodeofconduct',
    );
  const version = url.searchParams.get('api-version');
  if (!v1 && version === null) return NOT_FOUND;
  if (!v1 && !state.settings.azure.apiVersions.includes(version ?? '')) return azureError(400, 'BadRequest', 'API version not supported');
  if (!v1 && route.kind === 'image' && route.endpoint === 'edits' && (version ?? '') < EDITS_FROM) return NOT_FOUND;
  return undefined;
}

/** The content filter's verdict on a prompt: Azure's 400, or undefined when it passes. */
function filtered(state: EmulatorState, prompt: string) {
  const hit = state.settings.azure.contentFilterTerms.some((term) => prompt.toLowerCase().includes(term.toLowerCase()));
  if (!hit) return undefined;
  state.azureFilterHits += 1;
  const safe = { filtered: false, severity: 'safe' };
  return azureError(
    400,
    'content_filter',
    "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry. To learn more about our content filtering policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766",
    {
      type: null,
      param: 'prompt',
      status: 400,
      innererror: {
        code: 'ResponsibleAIPolicyViolation',
        content_filter_result: {
          hate: safe,
          self_harm: safe,
          sexual: safe,
          violence: { filtered: true, severity: 'high' },
          jailbreak: { filtered: false, detected: false },
        },
      },
    },
  );
}

/** The request as the OpenAI pipeline sees it: OpenAI's path, the deployment's model in `model`. */
function asOpenAi(record: RecordedRequest, path: string, model: string): RecordedRequest {
  return {
    ...record,
    path,
    ...(record.json ? { json: { ...record.json, model } } : {}),
    ...(record.form ? { form: { ...record.form, fields: { ...record.form.fields, model } } } : {}),
  };
}

/** Handles every request of the Azure dialect. */
export async function handleAzure(state: EmulatorState, x: DialectRequest): Promise<void> {
  const url = new URL(x.record.path, 'http://azure.emulator');
  const found = routeOf(x.record.method, url.pathname);
  const field = (name: string): string => {
    const value = x.record.json?.[name] ?? x.record.form?.fields[name];
    return typeof value === 'string' ? value : '';
  };
  const deploymentOf = (route: Route) => (route.kind !== 'models' && route.deployment !== undefined ? route.deployment : field('model'));
  if (found?.route.kind === 'image') {
    const { endpoint } = found.route;
    const modelFor = (sent: string) => modelOf(state, found.v1 ? sent : deploymentOf(found.route)) ?? sent;
    await parseImageBody(x.record, x.body, { specPath: `/images/${endpoint}`, modelOf: modelFor });
  }
  if (found?.route.kind === 'chat') parseChatBody(x.record, x.body);
  state.record(x.record);
  if (!found) return sendAnswer(x.res, NOT_FOUND);
  const { route, v1 } = found;
  const startedAt = route.kind === 'image' ? ((await state.passHold(x.record)) ?? x.arrivedAt) : x.arrivedAt;
  const refused = refusal(state, x, route, v1, url);
  if (refused) return sendAnswer(x.res, refused);
  if (route.kind === 'models') return answerModels(state, x, state.settings.models);
  const deployment = deploymentOf(route);
  const model = modelOf(state, deployment);
  if (model === undefined)
    return sendAnswer(
      x.res,
      azureError(
        404,
        'DeploymentNotFound',
        'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.',
      ),
    );
  if (route.kind === 'chat') return handleChatPost(state, asOpenAi(x.record, '/v1/chat/completions', model), x.res, x.presetCtx, startedAt);
  const filter = filtered(state, field('prompt'));
  if (filter) return sendAnswer(x.res, filter);
  return handleImagePost(state, asOpenAi(x.record, `/v1/images/${route.endpoint}`, model), x.res, x.presetCtx, startedAt);
}
