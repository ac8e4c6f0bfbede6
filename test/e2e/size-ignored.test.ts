/**
 * A model that ignores `size` (relays' "-all" models): the result is delivered, charged, with a short note saying
 * what size was made instead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { resultPost, settled, textOf } from './support.js';

describe('a gateway that ignores the size, end to end', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  it('delivers with a note naming the size made', async () => {
    h.gateway.enqueue({ type: 'success', ignoreSize: true });
    const options = [
      { name: 'prompt', type: 3, value: 'a wide harbour' },
      { name: 'size', type: 3, value: '1536x1024' },
    ];
    const handle = h.discord.slash('imagine', options, { user: h.discord.fixtures.member });
    await handle.waitFor(settled);
    const content = textOf(resultPost(handle)?.payload);
    expect(resultPost(handle)?.files).toHaveLength(1);
    expect(content).toContain('The service made 1024x1024 instead of 1536x1024.');
  });

  it('adds no note when the size is as asked', async () => {
    const handle = h.discord.slash(
      'imagine',
      [
        { name: 'prompt', type: 3, value: 'a square harbour' },
        { name: 'size', type: 3, value: '1024x1024' },
      ],
      { user: h.discord.fixtures.member },
    );
    await handle.waitFor(settled);
    expect(textOf(resultPost(handle)?.payload)).not.toContain('The service made');
  });
});
