/** `onAbort`: one real listener per signal, with `addEventListener`'s once-semantics for each caller. */
import { describe, expect, it, vi } from 'vitest';
import { onAbort } from '../../src/core/abort-listeners.js';

describe('onAbort', () => {
  it('adds one listener to the signal however many callers wait on it', () => {
    const controller = new AbortController();
    const added = vi.spyOn(controller.signal, 'addEventListener');
    for (let i = 0; i < 50; i++) onAbort(controller.signal, () => {});
    expect(added).toHaveBeenCalledTimes(1);
  });

  it('calls each listener once, in registration order', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    onAbort(controller.signal, () => calls.push('a'));
    onAbort(controller.signal, () => calls.push('b'));
    controller.abort();
    controller.abort();
    expect(calls).toEqual(['a', 'b']);
  });

  it('does not call a removed listener, even one removed while the abort is being delivered', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    let stopB = () => {};
    const stopA = onAbort(controller.signal, () => {
      calls.push('a');
      stopB();
    });
    stopB = onAbort(controller.signal, () => calls.push('b'));
    const stopC = onAbort(controller.signal, () => calls.push('c'));
    stopC();
    controller.abort();
    stopA();
    expect(calls).toEqual(['a']);
  });

  it('never calls a listener added to a signal that has already aborted', () => {
    const calls: string[] = [];
    onAbort(AbortSignal.abort(), () => calls.push('late'));
    const controller = new AbortController();
    onAbort(controller.signal, () => onAbort(controller.signal, () => calls.push('during')));
    controller.abort();
    expect(calls).toEqual([]);
  });

  it('still calls the other listeners when one throws, and rethrows its error in a microtask', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    const scheduled: Array<() => void> = [];
    const schedule = vi.spyOn(globalThis, 'queueMicrotask').mockImplementation((fn) => {
      scheduled.push(fn);
    });
    onAbort(controller.signal, () => {
      throw new Error('listener broke');
    });
    onAbort(controller.signal, () => calls.push('second'));
    controller.abort();
    schedule.mockRestore();
    expect(calls).toEqual(['second']);
    expect(scheduled).toHaveLength(1);
    expect(() => scheduled[0]!()).toThrow('listener broke');
  });
});
