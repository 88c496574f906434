import { describe, expect, it } from 'vitest';
import { HandoffSession, summarizeHandoffs } from '../../src/agents/handoff/index.js';
import { FakeClock } from '../../src/testing/index.js';

const matrix: Record<string, string[]> = {
  a: ['b', 'c'],
  b: ['a', 'c'],
  c: ['a', 'b', 'd'],
  d: ['e', 'a'],
  e: [],
};
const session = (max?: number) => new HandoffSession('a', (n) => matrix[n] ?? [], max);

/** Requests and immediately carries out a handoff. */
function hop(s: HandoffSession, to: string) {
  const record = s.request(s.active, to, `task for ${to}`, '');
  s.take();
  return record;
}

describe('HandoffSession', () => {
  it('refuses A→B→A: any agent already in the chain, not only the one two hops back', () => {
    const s = session();
    expect(hop(s, 'b').accepted).toBe(true);
    expect(s.check('b', 'a')).toEqual({
      allowed: false,
      reason: '"a" already worked on this run (a → b); handing back would loop',
    });
    expect(hop(s, 'c').accepted).toBe(true);
    expect(s.check('c', 'a').allowed).toBe(false);
    expect(s.check('c', 'b').allowed).toBe(false);
  });

  it('lets all three handoffs through and refuses the fourth', () => {
    const s = session();
    for (const to of ['b', 'c', 'd']) expect(hop(s, to).accepted).toBe(true);
    expect(s.count).toBe(3);
    expect(s.visited).toEqual(['a', 'b', 'c', 'd']);
    const fourth = s.request('d', 'e', 'more', '');
    expect(fourth).toMatchObject({
      accepted: false,
      reason: 'the run already used its 3 handoff(s) (a → b → c → d)',
    });
    expect(s.pending).toBeUndefined();
  });

  it('refuses targets outside the matrix, naming the allowed ones', () => {
    expect(session().check('a', 'd')).toEqual({
      allowed: false,
      reason: '"a" may not hand off to "d" (allowed targets: b, c)',
    });
    expect(new HandoffSession('e', () => []).check('e', 'a')).toMatchObject({
      reason: '"e" may not hand off to "a" (allowed targets: none)',
    });
  });

  it('keeps one pending handoff until it is taken', () => {
    const s = session();
    s.request('a', 'b', 'x', 'ctx');
    expect(s.pending).toMatchObject({ to: 'b', context: 'ctx' });
    expect(s.check('a', 'c')).toMatchObject({ allowed: false });
    expect(s.take()?.to).toBe('b');
    expect(s.active).toBe('b');
    expect(s.take()).toBeUndefined();
  });

  it('stamps requests with the clock and summarises the history', () => {
    const clock = new FakeClock(1000);
    const s = new HandoffSession('a', (n) => matrix[n] ?? [], 3, clock);
    s.request('a', 'b', 'find it', '');
    s.take();
    s.request('b', 'a', 'back', '');
    expect(s.history[0]!.at).toBe(1000);
    expect(s.summary()).toBe(
      '1. a → b: find it (accepted)\n2. b → a: back (refused: "a" already worked on this run (a → b); handing back would loop)',
    );
    expect(summarizeHandoffs([])).toBe('No handoffs.');
  });
});
