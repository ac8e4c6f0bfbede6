/**
 * The fair queue's lanes (issue 32): the priority lane starts first, and the normal lane keeps at least one start in
 * every `priorityWeight + 1` while it has a job waiting, however many priority jobs wait.
 */
import { describe, expect, it } from 'vitest';
import { FairQueue } from '../../src/service/fair-queue.js';
import { accepted, harness } from './fair-queue-harness.js';

/** Finishes every started job in start order, jobs started meanwhile included. */
async function drain(started: string[], finish: (label: string) => Promise<void>): Promise<void> {
  for (const label of started) await finish(label);
}

describe('FairQueue lanes', () => {
  it('starts a priority job before ordinary jobs that waited longer', async () => {
    const { submit, started, finish } = harness({ concurrency: 1, perMemberRunning: 1 });
    submit('a', 'a1');
    submit('b', 'b1');
    submit('c', 'c1');
    submit('p', 'p1', {}, 'priority');
    await drain(started, finish);
    expect(started).toEqual(['a1', 'p1', 'b1', 'c1']);
  });

  it('gives ordinary members one start in every four however large the priority flood', async () => {
    const { submit, started, finish } = harness({ concurrency: 1, perMemberRunning: 1, perMemberQueued: 20 });
    submit('first', 'first');
    for (let job = 1; job <= 4; job++) for (const member of ['p', 'q', 'r', 's', 't']) submit(member, `${member}${job}`, {}, 'priority');
    submit('n', 'n1');
    submit('n', 'n2');
    submit('n', 'n3');
    await drain(started, finish);
    const lanes = started.slice(1).map((label) => (label.startsWith('n') ? 'N' : 'P'));
    // The priority lane goes first, three at a time; the ordinary member's jobs each come fourth.
    expect(lanes.join('')).toBe(`${'PPPN'.repeat(3)}${'P'.repeat(11)}`);
    expect(started).toHaveLength(24);
  });

  it('tells an ordinary member behind a flood that three priority jobs go before theirs', () => {
    const { submit, positions } = harness({ concurrency: 1, perMemberRunning: 1, perMemberQueued: 20 });
    submit('first', 'first');
    for (let job = 1; job <= 5; job++) submit('p', `p${job}`, {}, 'priority');
    submit('n', 'n1');
    expect(positions.get('n1')).toEqual([4]);
    expect(positions.get('p5')).toEqual([5, 6]);
  });

  it('does not bank priority starts made while nobody ordinary waited', async () => {
    const { submit, started, finish } = harness({ concurrency: 1, perMemberRunning: 1, perMemberQueued: 20 });
    submit('p', 'p1', {}, 'priority');
    for (let job = 2; job <= 10; job++) submit('p', `p${job}`, {}, 'priority');
    // Four priority starts with nobody ordinary waiting (p5 is running now)…
    for (const label of ['p1', 'p2', 'p3', 'p4']) await finish(label);
    submit('n', 'n1');
    await drain(started, finish);
    // …do not let n1 in at once: the priority lane still goes first, three times.
    expect(started).toEqual(['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8', 'n1', 'p9', 'p10']);
  });

  it('takes the weight from its options', async () => {
    const { submit, started, finish } = harness({ concurrency: 1, perMemberRunning: 1, priorityWeight: 1 });
    submit('first', 'first');
    for (let job = 1; job <= 3; job++) submit('p', `p${job}`, {}, 'priority');
    submit('n', 'n1');
    submit('n', 'n2');
    await drain(started, finish);
    expect(started).toEqual(['first', 'p1', 'n1', 'p2', 'n2', 'p3']);
  });

  it('lets the normal lane start when the priority lane’s members are at their running caps', async () => {
    const { submit, started } = harness({ concurrency: 3, perMemberRunning: 1 });
    submit('p', 'p1', {}, 'priority');
    submit('p', 'p2', {}, 'priority');
    submit('n', 'n1');
    expect(started).toEqual(['p1', 'n1']);
  });

  it('moves a member’s waiting jobs to the lane of their latest submission', async () => {
    const { submit, started, finish } = harness({ concurrency: 1, perMemberRunning: 1 });
    submit('first', 'first');
    submit('b', 'b1');
    submit('a', 'a1');
    submit('a', 'a2', {}, 'priority');
    await drain(started, finish);
    expect(started).toEqual(['first', 'a1', 'a2', 'b1']);
  });

  it('rejects a weight below 1', () => {
    expect(() => new FairQueue({ priorityWeight: 0 })).toThrow(RangeError);
  });

  it('still serves a lone lane at full speed', async () => {
    const { queue, submit } = harness({ concurrency: 2, perMemberRunning: 2 });
    const tickets = [submit('p', 'p1', {}, 'priority'), submit('p', 'p2', {}, 'priority')].map(accepted);
    expect(tickets.map((t) => t.position)).toEqual([0, 0]);
    expect(queue.running).toBe(2);
  });
});
