/**
 * The demo: the real bot against the Discord and gateway emulators, a member running the steps in order, then the
 * conversation written out as a page (`transcript.html`, with its images in `transcript-files/`) next to the images
 * each step saved.
 */
import { mkdirSync } from 'node:fs';
import { relative } from 'node:path';
import { startHarness, type HarnessOptions } from '../test/e2e/harness.js';
import type { InteractionHandle } from '../test/emulators/discord/index.js';
import { specValidationSummary } from '../test/support/openapi.js';
import { createDemoContext } from './demo-context.js';
import type { DemoStep } from './demo-steps.js';
import { writeTranscript, type WrittenTranscript } from './transcript-files.js';
import { snapshotConversation } from './transcript-snapshot.js';

/** Options for {@link runDemo}. */
export interface DemoOptions {
  /** Where the images and the transcript go (created when missing). */
  readonly outputDir: string;
  readonly steps: readonly DemoStep[];
  /** Prints one line of the console transcript. */
  readonly say: (line: string) => void;
  /** Overrides of the demo's harness settings (a test makes the gateway fast). */
  readonly harness?: HarnessOptions | undefined;
}

/** Runs the steps and writes the transcript page; resolves with what it wrote. */
export async function runDemo(options: DemoOptions): Promise<WrittenTranscript & { images: string[] }> {
  const { outputDir, say } = options;
  mkdirSync(outputDir, { recursive: true });
  say(specValidationSummary());
  say('Starting the Discord emulator, the gateway emulator and the bot…');
  const harness = await startHarness({
    // Info: the demo waits for the service's "image job delivered" line (the harness keeps the logs in memory).
    env: { GATEWAY_PARTIAL_IMAGES: '1', PROGRESS_INTERVAL_MS: '400', LOG_LEVEL: 'info' },
    gateway: { delayMs: 1_200, imageStyle: 'illustrated' },
    ...options.harness,
  });
  try {
    say(`Bot logged in as ${harness.bot.client.user?.tag ?? 'imagine-bot'}; commands registered: ${harness.discord.registeredCommands('global').length}\n`);
    const tracked: InteractionHandle[] = [];
    const ctx = createDemoContext({ harness, outputDir, say, tracked });
    const images: string[] = [];
    for (const step of options.steps) {
      const result = await step.run(ctx);
      if (!result) continue;
      ctx.last = result;
      ctx.results.set(step.name, result);
      images.push(...result.images.map((image) => image.path));
    }
    const title = 'imagine-bot demo';
    const written = await writeTranscript(outputDir, snapshotConversation(harness, tracked, title, `Steps: ${options.steps.map((s) => s.name).join(', ')}`));
    say(`\nDone. Images are in ${outputDir}:`);
    for (const path of images) say(relative(process.cwd(), path));
    say(`Transcript page: ${relative(process.cwd(), written.page)} (open it in a browser)`);
    return { ...written, images };
  } finally {
    await harness.close();
  }
}
