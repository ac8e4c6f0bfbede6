/**
 * `npm run demo`: the real bot against the built-in Discord and gateway emulators. A member runs /imagine, picks, varies,
 * zooms and edits the result, then tries what issue 32 added while the admin changes settings and reads /usage
 * (demo-steps.ts, feature-steps.ts); the console shows acknowledgements, progress edits and timings, the images
 * land in ./demo-output/, and ./demo-output/transcript.html shows the conversation as Discord would. The gateway
 * emulator draws 'illustrated' images: the prompt, size and variant, and for the edit the first image recoloured under
 * the edit prompt. No Discord application or gateway account needed.
 */
import { resolve } from 'node:path';
import { DEMO_STEPS } from './demo-steps.js';
import { runDemo } from './run-demo.js';

runDemo({ outputDir: resolve('demo-output'), steps: DEMO_STEPS, say: (line) => process.stdout.write(`${line}\n`) }).catch((err: unknown) => {
  process.stderr.write(`demo failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
