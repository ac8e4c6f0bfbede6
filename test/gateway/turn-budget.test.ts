/**
 * Reading bodies within the per-turn byte budget: counted in event-loop turns (check phases), never in time.
 */
import { Readable } from 'node:stream';
import { Agent } from 'undici';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CallScope } from '../../src/gateway/call-scope.js';
import { GatewayHttp, type GatewayResponse } from '../../src/gateway/http.js';
import { TURN_BYTES, TurnBudget } from '../../src/gateway/turn-budget.js';

const agent = new Agent();
afterAll(() => agent.close());
const http = new GatewayHttp({ baseUrl: 'http://gateway.test/v1', apiKey: 'unused', dispatcher: agent });
const consumeCapped: GatewayHttp['consumeCapped'] = (...args) => http.consumeCapped(...args);

const CHUNK = 64 * 1024;

/** A response whose body has all its chunks buffered already (the case where for-await never yields). */
function bufferedResponse(chunks: number): GatewayResponse {
  // Object mode keeps the chunks apart (a byte stream would hand them over concatenated).
  const body = new Readable({
    objectMode: true,
    read() {
      // Everything is pushed up front.
    },
  });
  for (let i = 0; i < chunks; i += 1) body.push(Buffer.alloc(CHUNK, i));
  body.push(null);
  return { statusCode: 200, headers: {}, body } as unknown as GatewayResponse;
}

/** Numbers event-loop turns: the counter moves once per check phase while running. */
function turnCounter(): { turn: () => number; stop: () => void } {
  let turn = 0;
  let running = true;
  const tick = (): void => {
    turn += 1;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return { turn: () => turn, stop: () => (running = false) };
}

let scope: CallScope | undefined;
afterEach(() => scope?.dispose());

describe('consumeCapped within the turn budget', () => {
  it('hands over all bytes in order, at most a budget (plus one chunk) per turn, across concurrent bodies', async () => {
    scope = new CallScope(60_000);
    const counter = turnCounter();
    const perTurn = new Map<number, number>();
    const firstBytes: number[][] = [[], [], []];
    const read = (index: number) =>
      consumeCapped(bufferedResponse(48), 64 * TURN_BYTES, scope!, undefined, (chunk) => {
        perTurn.set(counter.turn(), (perTurn.get(counter.turn()) ?? 0) + chunk.byteLength);
        firstBytes[index]?.push(chunk[0] ?? -1);
      });
    const totals = await Promise.all([read(0), read(1), read(2)]);
    counter.stop();
    expect(totals).toEqual([48 * CHUNK, 48 * CHUNK, 48 * CHUNK]);
    expect(firstBytes).toEqual([0, 1, 2].map(() => Array.from({ length: 48 }, (_, i) => i)));
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(TURN_BYTES + CHUNK);
    expect(perTurn.size).toBeGreaterThanOrEqual(Math.ceil((3 * 48 * CHUNK) / (TURN_BYTES + CHUNK)));
  });

  it('still refuses a body beyond the cap', async () => {
    scope = new CallScope(60_000);
    const read = consumeCapped(bufferedResponse(4), 3 * CHUNK, scope, undefined, () => undefined);
    await expect(read).rejects.toMatchObject({ code: 'response_too_large' });
  });
});

describe('TurnBudget', () => {
  it('is per instance: one client spending its budget does not hold back another', async () => {
    const counter = turnCounter();
    const spent = new TurnBudget(100);
    const other = new TurnBudget(100);
    await spent.spend(100);
    const turn = counter.turn();
    await other.spend(100);
    expect(counter.turn()).toBe(turn);
    await spent.spend(1);
    expect(counter.turn()).toBeGreaterThan(turn);
    counter.stop();
  });
});
