/**
 * The swap batcher over a `send` the test answers by hand: which requests travel together, in what order, how many
 * batches are in flight, and what a failed batch fails.
 */
import { describe, expect, it } from 'vitest';
import { SwapBatcher } from '../../src/storage/swap-batcher.js';

/** A request of the tests: a name, and the keys it writes. */
interface Request {
  name: string;
  keys: string[];
}

/** A batch the batcher sent, answered by the test. */
interface Sent {
  names: string[];
  answer: (results?: string[]) => void;
  fail: (error: unknown) => void;
}

/** A batcher whose `send` records each batch and waits for the test to answer it. */
function batcher(options: { maxBatch?: number; maxInFlight?: number } = {}) {
  const sent: Sent[] = [];
  const swaps = new SwapBatcher<Request, string>({
    ...options,
    keysOf: (request) => request.keys,
    send: (requests) =>
      new Promise((resolve, reject) => {
        const names = requests.map((r) => r.name);
        sent.push({ names, answer: (results) => resolve(results ?? names.map((n) => `${n}:done`)), fail: reject });
      }),
  });
  const submit = (name: string, ...keys: string[]) => swaps.submit({ name, keys: keys.length > 0 ? keys : [name] });
  return { sent, submit };
}

/** Lets the batcher's microtask and the settled batches' continuations run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('SwapBatcher', () => {
  it('sends the requests of one moment together, in the order they came, up to maxBatch each', async () => {
    const { sent, submit } = batcher({ maxBatch: 3 });
    const results = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((name) => submit(name));
    await settle();
    expect(sent.map((s) => s.names)).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e', 'f'],
    ]);
    sent[0]?.answer();
    await settle();
    expect(sent.map((s) => s.names)).toEqual([['a', 'b', 'c'], ['d', 'e', 'f'], ['g']]);
    sent[1]?.answer();
    sent[2]?.answer();
    expect(await Promise.all(results)).toEqual(['a:done', 'b:done', 'c:done', 'd:done', 'e:done', 'f:done', 'g:done']);
  });

  it('keeps at most maxInFlight batches unanswered; the requests that come meanwhile gather into the next', async () => {
    const { sent, submit } = batcher({ maxInFlight: 2 });
    void submit('a');
    await settle();
    void submit('b');
    await settle();
    for (const name of ['c', 'd', 'e']) void submit(name);
    await settle();
    expect(sent.map((s) => s.names)).toEqual([['a'], ['b']]);
    sent[1]?.answer();
    await settle();
    expect(sent.map((s) => s.names)).toEqual([['a'], ['b'], ['c', 'd', 'e']]);
  });

  it('never puts a key in two requests of a batch, nor in two batches at once, and keeps each key in order', async () => {
    const { sent, submit } = batcher();
    void submit('a1', 'a');
    await settle();
    // a2 waits for a1's batch; a3 for a2; x2 shares x with a2, which waits, so x2 waits too (it may not overtake).
    for (const [name, ...keys] of [
      ['a2', 'a', 'x'],
      ['b1', 'b'],
      ['a3', 'a'],
      ['x2', 'x'],
      ['b2', 'b'],
    ] as const)
      void submit(name, ...keys);
    await settle();
    expect(sent.map((s) => s.names)).toEqual([['a1'], ['b1']]);
    sent[0]?.answer();
    await settle();
    expect(sent.map((s) => s.names)).toEqual([['a1'], ['b1'], ['a2']]);
    // b1 answered: b2 goes while a2 is in flight; a2 answered: a3 and x2 go.
    sent[1]?.answer();
    await settle();
    sent[2]?.answer();
    await settle();
    expect(sent.map((s) => s.names)).toEqual([['a1'], ['b1'], ['a2'], ['b2'], ['a3', 'x2']]);
  });

  it('never holds back requests without keys (reads), even of one key', async () => {
    const batches: string[][] = [];
    const reads = new SwapBatcher<string, string>({
      keysOf: () => [],
      send: (keys) => {
        batches.push([...keys]);
        return Promise.resolve(keys.map((key) => `${key}:read`));
      },
    });
    expect(await Promise.all(['k', 'k', 'j', 'k'].map((key) => reads.submit(key)))).toEqual(['k:read', 'k:read', 'j:read', 'k:read']);
    expect(batches).toEqual([['k', 'k', 'j', 'k']]);
  });

  it('fails the requests of a failed batch with its error, and only them', async () => {
    const { sent, submit } = batcher({ maxBatch: 2 });
    const results = ['a', 'b', 'c'].map((name) => submit(name).catch((error: unknown) => error));
    await settle();
    const lost = new Error('connection lost');
    sent[0]?.fail(lost);
    sent[1]?.answer();
    expect(await Promise.all(results)).toEqual([lost, lost, 'c:done']);
    // The batcher goes on after a failure.
    const later = submit('d');
    await settle();
    sent[2]?.answer();
    expect(await later).toBe('d:done');
  });

  it('fails a batch answered with fewer results than requests', async () => {
    const { sent, submit } = batcher();
    const results = ['a', 'b'].map((name) => submit(name).catch((error: unknown) => error));
    await settle();
    sent[0]?.answer(['a:done']);
    const [a, b] = await Promise.all(results);
    expect(a).toBeInstanceOf(Error);
    expect(b).toBe(a);
  });
});
