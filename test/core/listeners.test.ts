/** The bus's listener lists: order, once, removal during delivery. */
import { describe, expect, it } from 'vitest';
import { Listeners } from '../../src/core/listeners.js';

describe('Listeners', () => {
  it('calls the listeners of a key in the order they were added', () => {
    const listeners = new Listeners<number>();
    const calls: string[] = [];
    listeners.add('a', (n) => calls.push(`first ${n}`));
    listeners.add('a', (n) => calls.push(`second ${n}`));
    listeners.add('b', (n) => calls.push(`other ${n}`));
    listeners.emit('a', 1);
    expect(calls).toEqual(['first 1', 'second 1']);
  });

  it('removes a once listener before calling it, so an event it causes does not reach it again', () => {
    const listeners = new Listeners<number>();
    const calls: number[] = [];
    listeners.add(
      'a',
      (n) => {
        calls.push(n);
        if (n === 1) listeners.emit('a', 2);
      },
      true,
    );
    listeners.emit('a', 1);
    listeners.emit('a', 3);
    expect(calls).toEqual([1]);
  });

  it('delivers an event to the listeners registered when it started, whatever they add or remove', () => {
    const listeners = new Listeners<number>();
    const calls: string[] = [];
    const late = () => calls.push('late');
    const second = () => calls.push('second');
    listeners.add('a', () => {
      calls.push('first');
      listeners.remove('a', second);
      listeners.add('a', late);
    });
    listeners.add('a', second);
    listeners.emit('a', 1);
    expect(calls).toEqual(['first', 'second']);
    calls.length = 0;
    listeners.emit('a', 2);
    expect(calls).toEqual(['first', 'late']);
  });

  it('removes every registration of a function, once or not', () => {
    const listeners = new Listeners<number>();
    const calls: number[] = [];
    const fn = (n: number) => calls.push(n);
    listeners.add('a', fn);
    listeners.add('a', fn, true);
    expect(listeners.count('a')).toBe(2);
    listeners.remove('a', fn);
    listeners.emit('a', 1);
    expect(calls).toEqual([]);
    expect(listeners.count('a')).toBe(0);
  });
});
