/**
 * The baseline: what a developer writes first. A plain discord.js client that, on /imagine, defers, calls the
 * official openai SDK's images.generate, decodes every b64_json into a Buffer and edits the reply with the files.
 * No quota, no queue, no streaming, no retries beyond the SDK's (turned off, like the bot's GATEWAY_MAX_RETRIES=0).
 */
import { AttachmentBuilder, Client, Events, GatewayIntentBits } from 'discord.js';
import OpenAI from 'openai';

export interface BaselineOptions {
  discordApiUrl: string;
  discordToken: string;
  gatewayBaseUrl: string;
  gatewayApiKey: string;
  model?: string | undefined;
}

export interface BaselineBot {
  client: Client;
  stop(): Promise<void>;
}

type Size = '1024x1024' | '1536x1024' | '1024x1536' | 'auto';

/** Logs in and resolves once the client is ready. */
export async function startBaselineBot(options: BaselineOptions): Promise<BaselineBot> {
  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: options.discordApiUrl } });
  const openai = new OpenAI({ apiKey: options.gatewayApiKey, baseURL: options.gatewayBaseUrl, maxRetries: 0, timeout: 180_000 });
  const inFlight = new Set<Promise<unknown>>();

  client.on(Events.InteractionCreate, (interaction) => {
    if (!interaction.isChatInputCommand() || interaction.commandName !== 'imagine') return;
    const work = (async () => {
      await interaction.deferReply();
      const prompt = interaction.options.getString('prompt', true);
      const size = (interaction.options.getString('size') ?? '1024x1024') as Size;
      const n = interaction.options.getInteger('count') ?? 1;
      try {
        const result = await openai.images.generate({ model: options.model ?? 'gpt-image-1', prompt, n, size });
        const files = (result.data ?? []).map((image, i) => new AttachmentBuilder(Buffer.from(image.b64_json ?? '', 'base64'), { name: `image-${i + 1}.png` }));
        await interaction.editReply({ content: prompt, files });
      } catch (err) {
        await interaction.editReply({ content: `Generation failed: ${err instanceof Error ? err.message : String(err)}` });
      }
    })()
      .catch((err: unknown) => console.error('baseline bot:', err))
      .finally(() => inFlight.delete(work));
    inFlight.add(work);
  });

  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(options.discordToken);
  await ready;
  return {
    client,
    async stop() {
      await Promise.allSettled([...inFlight]);
      await client.destroy();
    },
  };
}
