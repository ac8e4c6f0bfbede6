/**
 * The enhance step of an image job (prompt help): when the member asked for it, the prompt goes to the chat model
 * and the job continues with the rewritten one, which must pass the same request and model rules as the member's.
 * It never fails the job: off here, unconfigured, failed or unusable, the member's prompt is used with a notice.
 */
import type { DeliveryNotice, Delivery, ImageJob } from '../core/jobs.js';
import type { ModelProfile } from '../core/model-profiles.js';
import { validateGenerateRequest } from '../core/image-rules.js';
import { checkAgainstProfile } from '../core/profile-rules.js';
import type { GenerateRequest } from '../core/images.js';
import type { PromptHelp, PromptHelpUsage } from './prompt-help.js';

/** What the step needs of a checked request. */
interface Checked {
  request: GenerateRequest;
  model: string;
  profile: ModelProfile;
  /** The server allows prompt help. */
  promptHelp: boolean;
  /** An edit's references and fields, as the request was checked with them. */
  edit: ImageJob['edit'];
}

/** What the delivery and the usage record get from the step. */
export interface EnhancementOutcome {
  notices: DeliveryNotice[];
  prompts?: Delivery['prompts'];
  used?: PromptHelpUsage | undefined;
}

/** The job and checked request to generate from, and what to show and record of the step. */
export async function enhancedRequest<P extends Checked>(
  job: ImageJob,
  checked: P,
  help: Pick<PromptHelp, 'enhance'> | undefined,
  signal?: AbortSignal,
): Promise<{ job: ImageJob; prepared: P; enhancement: EnhancementOutcome }> {
  if (!job.enhance) return { job, prepared: checked, enhancement: { notices: [] } };
  if (!checked.promptHelp || !help) return { job, prepared: checked, enhancement: { notices: [{ kind: 'enhanceSkipped', reason: 'off' }] } };
  const original = checked.request.prompt;
  const check = (prompt: string) => {
    checkAgainstProfile(validateGenerateRequest({ ...checked.request, prompt }), checked.model, checked.profile, checked.edit);
  };
  const outcome = await help.enhance(original, check, signal);
  if (!outcome.ok) return { job, prepared: checked, enhancement: { notices: [{ kind: 'enhanceSkipped', reason: 'failed' }], used: outcome.used } };
  const prompt = outcome.prompt;
  return {
    // The job goes on (and is archived, so Re-roll uses it) with the rewritten prompt.
    job: { ...job, request: { ...job.request, prompt } },
    prepared: { ...checked, request: { ...checked.request, prompt } },
    enhancement: { notices: [], prompts: { original, enhanced: prompt }, used: outcome.used },
  };
}
