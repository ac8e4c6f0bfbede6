/**
 * What prompt help adds to the commands when it is configured (PROMPT_MODEL, VISION_MODEL): the `enhance` option of
 * /imagine and /edit. Unconfigured, the commands are registered without it, so members never see an option that
 * does nothing.
 */
import { ApplicationCommandOptionType, type APIApplicationCommandBasicOption, type RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';

/** Which parts of prompt help are configured. */
export interface PromptHelpFeatures {
  /** PROMPT_MODEL is set: /imagine and /edit take `enhance`. */
  enhance: boolean;
  /** VISION_MODEL or PROMPT_MODEL is set: /describe and the Describe image menu exist. */
  describe: boolean;
}

/** Prompt help off: what the bot registers when neither model is set. */
export const NO_PROMPT_HELP: PromptHelpFeatures = { enhance: false, describe: false };

/** The chat models prompt help uses: VISION_MODEL defaults to PROMPT_MODEL. */
export function promptModelsOf(config: { PROMPT_MODEL?: string | undefined; VISION_MODEL?: string | undefined }): {
  promptModel: string | undefined;
  visionModel: string | undefined;
} {
  return { promptModel: config.PROMPT_MODEL, visionModel: config.VISION_MODEL ?? config.PROMPT_MODEL };
}

/** Which parts of prompt help the configuration turns on. */
export function promptFeaturesOf(config: { PROMPT_MODEL?: string | undefined; VISION_MODEL?: string | undefined }): PromptHelpFeatures {
  const { promptModel, visionModel } = promptModelsOf(config);
  return { enhance: promptModel !== undefined, describe: visionModel !== undefined };
}

export const ENHANCE_OPTION = {
  type: ApplicationCommandOptionType.Boolean,
  name: 'enhance' as const,
  description: 'Let the prompt helper rewrite your prompt first (no extra image quota)',
} satisfies APIApplicationCommandBasicOption;

/** `data` with the `enhance` option after its required options, when enhance is configured. */
export function withEnhance<D extends RESTPostAPIChatInputApplicationCommandsJSONBody & { options: APIApplicationCommandBasicOption[] }>(
  data: D,
  features: PromptHelpFeatures,
): D {
  if (!features.enhance) return data;
  const required = data.options.filter((o) => o.required === true);
  const optional = data.options.filter((o) => o.required !== true);
  return { ...data, options: [...required, ENHANCE_OPTION, ...optional] };
}
