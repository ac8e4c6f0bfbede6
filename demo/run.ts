/**
 * `npm run demo`: the real bot against the built-in Discord and gateway emulators. A member runs /imagine, then
 * /edit on the result; the transcript shows acknowledgements, progress edits and timings, and the images land
 * in ./demo-output/ (listed at the end). The gateway emulator draws 'illustrated' images: the prompt, size and
 * variant, and for the edit the first image recoloured under the edit prompt. No Discord application or gateway
 * account needed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { InteractionHandle } from '../test/emulators/discord/index.js';
import { startHarness } from '../test/e2e/harness.js';
import { specValidationSummary } from '../test/support/openapi.js';

const OUTPUT = resolve('demo-output');

async function main(): Promise<void> {
  mkdirSync(OUTPUT, { recursive: true });
  say(specValidationSummary());
  say('Starting the Discord emulator, the gateway emulator and the bot…');
  const h = await startHarness({
    env: { GATEWAY_PARTIAL_IMAGES: '1', PROGRESS_INTERVAL_MS: '400', LOG_LEVEL: 'warn' },
    gateway: { delayMs: 1_200, imageStyle: 'illustrated' },
  });
  try {
    say(`Bot logged in as ${h.bot.client.user?.tag ?? 'imagine-bot'}; commands registered: ${h.discord.registeredCommands('global').length}\n`);
    const member = h.discord.fixtures.member;

    say(`${member.username}: /imagine prompt:"a watercolor fox in a misty forest" count:2`);
    const imagine = h.discord.slash(
      'imagine',
      [
        { name: 'prompt', type: 3, value: 'a watercolor fox in a misty forest' },
        { name: 'count', type: 4, value: 2 },
      ],
      { user: member },
    );
    const imagined = await transcript(imagine, 'imagine');

    const first = imagined[0];
    if (!first) throw new Error('no image came back from /imagine');
    const upload = h.discord.uploadAttachment(first.bytes, first.filename, 'image/png');
    say(`\n${member.username}: /edit prompt:"the same scene in deep winter" image:${first.filename}`);
    const edit = h.discord.slash(
      'edit',
      [
        { name: 'prompt', type: 3, value: 'the same scene in deep winter' },
        { name: 'image', type: 11, value: upload.id },
      ],
      { user: member, resolvedAttachments: [upload] },
    );
    const edited = await transcript(edit, 'edit');
    say(`\nDone. Images are in ${OUTPUT}:`);
    for (const file of [...imagined, ...edited]) say(relative(process.cwd(), file.path));
  } finally {
    await h.close();
  }
}

/** Waits for the final edit, printing every response with its time since dispatch; saves the files. */
async function transcript(handle: InteractionHandle, label: string): Promise<{ bytes: Buffer; filename: string; path: string }[]> {
  await handle.waitFor((x) => x.edits.some((e) => e.status === 200 && e.files.length > 0 && /Imagined|Edited/.test(String(e.payload?.content))), 60_000);
  const since = (t: number) => `+${Math.round(t - handle.dispatchedAt)} ms`.padStart(9);
  for (const ack of handle.acks) say(`  ${since(ack.receivedAt)}  acknowledged (type ${ack.type}${ack.type === 5 ? ': "thinking…"' : ''})`);
  const saved: { bytes: Buffer; filename: string; path: string }[] = [];
  for (const edit of handle.edits) {
    const text = (edit.payload?.content ?? '').split('\n')[0];
    const files = edit.files.length > 0 ? ` [${edit.files.map((f) => `${f.filename} ${(f.bytes.length / 1024).toFixed(0)} KiB`).join(', ')}]` : '';
    say(`  ${since(edit.receivedAt)}  edit ${edit.status}: ${text}${files}`);
  }
  const final = handle.edits.filter((e) => e.status === 200 && e.files.length > 0).at(-1);
  for (const file of final?.files ?? []) {
    const path = join(OUTPUT, `${label}-${file.filename}`);
    writeFileSync(path, file.bytes);
    saved.push({ bytes: file.bytes, filename: file.filename, path });
  }
  return saved;
}

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`demo failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
