/**
 * The emulator's `tasks-result` shape (APIMart's task API): submitted like new-api's, polled at /v1/tasks/{id}, its
 * result links under `result.images[].url` (an array, or a string), signed and short-lived: 10 minutes, then 403.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startGatewayEmulator, type GatewayEmulator, type SuccessBehaviour } from './gateway/index.js';

let gateway: GatewayEmulator | undefined;

afterEach(async () => {
  expect(gateway?.specViolations ?? []).toEqual([]);
  await gateway?.close();
  gateway = undefined;
});

interface Poll {
  code: number;
  data: { id: string; status: string; progress: number; result?: { images: { url: string | string[]; expires_at: number }[] }; error?: unknown };
}

/** Submits one task answered by `behaviour` (n images), then polls it `polls` times. */
async function submitAndPoll(behaviour: Omit<SuccessBehaviour, 'type'>, n: number, polls: number) {
  gateway = await startGatewayEmulator();
  const gw = gateway;
  gw.enqueue({ type: 'success', asTask: 'tasks-result', ...behaviour });
  const auth = { authorization: `Bearer ${gw.apiKey}` };
  const res = await fetch(`${gw.baseUrl}/images/generations`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-image-1', prompt: 'p', n }),
  });
  const submitted = (await res.json()) as { code: number; data: { status: string; task_id: string }[] };
  const answers: Poll[] = [];
  for (let i = 0; i < polls; i++) {
    const poll = await fetch(`${gw.baseUrl}/tasks/${submitted.data[0]?.task_id ?? ''}`, { headers: auth });
    answers.push((await poll.json()) as Poll);
  }
  return { submitted, answers, gw };
}

describe('the tasks-result task shape', () => {
  it('is submitted as APIMart answers, then pending, processing and completed with an array of links', async () => {
    const { submitted, answers } = await submitAndPoll({ taskPolls: 2 }, 2, 3);
    expect(submitted).toEqual({ code: 200, data: [{ status: 'submitted', task_id: expect.stringMatching(/^task_/) as string }] });
    expect(answers.map((a) => [a.data.status, a.data.progress])).toEqual([
      ['pending', 0],
      ['processing', 40],
      ['completed', 100],
    ]);
    const images = answers[2]?.data.result?.images ?? [];
    expect(images).toHaveLength(1);
    expect(images[0]?.url).toEqual([expect.stringMatching(/\/files\/img-1\.png$/), expect.stringMatching(/\/files\/img-2\.png$/)]);
    // Ten minutes from now.
    expect(Math.abs((images[0]?.expires_at ?? 0) - (Date.now() / 1000 + 600))).toBeLessThan(5);
    expect(answers[2]).not.toHaveProperty('data.usage');
  });

  it('lists one item per image with taskUrls: string', async () => {
    const { answers } = await submitAndPoll({ taskPolls: 0, taskUrls: 'string' }, 2, 1);
    expect(answers[0]?.data.result?.images.map((i) => typeof i.url)).toEqual(['string', 'string']);
  });

  it('serves its links while they live, and answers 403 (expired) once they have lapsed', async () => {
    const live = await submitAndPoll({ taskPolls: 0 }, 1, 1);
    const [link] = live.answers[0]?.data.result?.images[0]?.url as string[];
    const ok = await fetch(link!);
    expect([ok.status, ok.headers.get('content-type')]).toEqual([200, 'image/png']);
    await live.gw.close();

    const lapsed = await submitAndPoll({ taskPolls: 0, urlTtlMs: 0 }, 1, 1);
    const [gone] = lapsed.answers[0]?.data.result?.images[0]?.url as string[];
    const expired = await fetch(gone!);
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('<Code>AccessDenied</Code><Message>Request has expired</Message>');
  });

  it('fails with an error object', async () => {
    const { answers } = await submitAndPoll({ taskPolls: 0, taskEnd: 'failed' }, 1, 1);
    expect(answers[0]?.data).toMatchObject({ status: 'failed', error: { code: 'generation_failed', message: 'Image generation failed' } });
  });
});
