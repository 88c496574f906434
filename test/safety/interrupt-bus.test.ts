import { describe, expect, it } from 'vitest';
import { MemoryInterruptBus } from '../../src/safety/approvals/interrupt-bus.js';
import {
  buildInterrupt,
  defaultResponse,
  type InterruptRequest,
  type InterruptSpec,
  interruptView,
  newInterruptId,
  validateResponse,
} from '../../src/safety/approvals/interrupts.js';
import { FakeClock, seededRandom } from '../../src/testing/fake-clock.js';

let n = 0;
function request(spec: Partial<InterruptSpec> = {}, runId = 'run_1'): InterruptRequest {
  return buildInterrupt({ kind: 'approval', title: 'Approve?', ...spec } as InterruptSpec, {
    id: `int_${++n}`,
    runId,
    createdAt: n,
  });
}

describe('interrupts', () => {
  it('makes ids of int_ and 12 hex digits from the random seam', () => {
    const a = newInterruptId(seededRandom(7));
    expect(a).toMatch(/^int_[0-9a-f]{12}$/);
    expect(newInterruptId(seededRandom(7))).toBe(a);
    expect(newInterruptId(seededRandom(8))).not.toBe(a);
  });

  it.each([
    ['approval', { timeoutMs: 120_000, defaultAction: 'deny' }],
    ['decision', { timeoutMs: 300_000, defaultAction: 'skip' }],
    ['input', { timeoutMs: 300_000, defaultAction: 'skip' }],
  ] as const)('gives a %s its own timeout and default', (kind, expected) => {
    const spec = { kind, title: 't', options: kind === 'decision' ? ['a'] : undefined } as InterruptSpec;
    expect(request(spec)).toMatchObject(expected);
  });

  it('uses a decision default option as the timeout answer', () => {
    const r = request({ kind: 'decision', options: ['red', 'blue'], defaultOption: 'blue' });
    expect(defaultResponse(r)).toEqual({ action: 'select', value: 'blue' });
    expect(interruptView(r)).not.toHaveProperty('defaultValue');
    expect(interruptView(r)).not.toHaveProperty('runId');
  });

  it.each([
    [{ kind: 'decision' }, 'at least one option'],
    [{ kind: 'decision', options: ['a'], defaultOption: 'b' }, 'not one of the options'],
    [{ kind: 'input', timeoutMs: 0 }, 'must be positive'],
  ])('rejects the invalid spec %j', (spec, message) => {
    expect(() => request(spec as Partial<InterruptSpec>)).toThrow(message);
  });

  it.each([
    ['approval', { action: 'select', value: 'x' }],
    ['approval', { action: 'maybe' }],
    ['decision', { action: 'select', value: 'purple' }],
    ['input', { action: 'input', value: 42 }],
  ] as const)('refuses a %s answer %j', (kind, answer) => {
    const r = request({ kind, options: kind === 'decision' ? ['red'] : undefined });
    expect(() => validateResponse(r, answer)).toThrow(expect.objectContaining({ kind: 'invalid_response' }));
  });
});

describe('MemoryInterruptBus', () => {
  it('delivers an answer that arrives before anyone waits (B16)', async () => {
    const bus = new MemoryInterruptBus({ clock: new FakeClock() });
    const r = request();
    await bus.publish(r);
    expect(await bus.respond(r.id, { action: 'approve' })).toBe(true);
    expect(await bus.waitFor(r.id, { timeoutMs: 1000 })).toEqual({ action: 'approve' });
  });

  it('delivers an answer to a waiter', async () => {
    const clock = new FakeClock();
    const bus = new MemoryInterruptBus({ clock });
    const r = request({ kind: 'input' });
    await bus.publish(r);
    const waiting = bus.waitFor(r.id, { timeoutMs: 1000 });
    await clock.advance(999);
    await bus.respond(r.id, { action: 'input', value: 'hello' });
    expect(await waiting).toEqual({ action: 'input', value: 'hello' });
    expect(clock.pending).toBe(0);
  });

  it('resolves undefined on timeout and refuses later answers', async () => {
    const clock = new FakeClock();
    const bus = new MemoryInterruptBus({ clock });
    const r = request();
    await bus.publish(r);
    const waiting = bus.waitFor(r.id, { timeoutMs: 1000 });
    await clock.advance(1000);
    expect(await waiting).toBeUndefined();
    expect(await bus.respond(r.id, { action: 'approve' })).toBe(false);
  });

  it('keeps the first answer', async () => {
    const bus = new MemoryInterruptBus({ clock: new FakeClock() });
    const r = request();
    await bus.publish(r);
    expect(await bus.respond(r.id, { action: 'deny' })).toBe(true);
    expect(await bus.respond(r.id, { action: 'approve' })).toBe(false);
    expect(await bus.waitFor(r.id, { timeoutMs: 1 })).toEqual({ action: 'deny' });
  });

  it('rejects an abort and closes the interrupt', async () => {
    const clock = new FakeClock();
    const bus = new MemoryInterruptBus({ clock });
    const r = request();
    await bus.publish(r);
    const controller = new AbortController();
    const waiting = bus.waitFor(r.id, { timeoutMs: 1000, signal: controller.signal });
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ kind: 'aborted' });
    expect(await bus.respond(r.id, { action: 'approve' })).toBe(false);
    expect(clock.pending).toBe(0);
  });

  it('refuses unknown ids and invalid answers', async () => {
    const bus = new MemoryInterruptBus({ clock: new FakeClock() });
    expect(await bus.respond('int_missing', { action: 'approve' })).toBe(false);
    await expect(bus.waitFor('int_missing', { timeoutMs: 1 })).rejects.toMatchObject({
      kind: 'invalid_request',
    });
    const r = request();
    await bus.publish(r);
    await expect(bus.respond(r.id, { action: 'input', value: 'x' })).rejects.toMatchObject({
      kind: 'invalid_response',
    });
  });

  it('lists a run’s unanswered requests and forgets unawaited ones after timeout plus 30 s', async () => {
    const clock = new FakeClock();
    const bus = new MemoryInterruptBus({ clock });
    const a = request({ timeoutMs: 1000 }, 'run_a');
    const b = request({ timeoutMs: 1000 }, 'run_a');
    const other = request({}, 'run_b');
    for (const r of [a, b, other]) await bus.publish(r);
    await bus.respond(b.id, { action: 'approve' });
    expect((await bus.pending('run_a')).map((r) => r.id)).toEqual([a.id]);
    await clock.advance(31_000);
    expect(await bus.pending('run_a')).toEqual([]);
    expect(await bus.respond(a.id, { action: 'approve' })).toBe(false);
  });
});
