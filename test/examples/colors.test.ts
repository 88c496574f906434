/**
 * The examples' printers style their output only for a terminal that wants
 * it: FORCE_COLOR first, then NO_COLOR, then whether stdout is a TTY.
 */
import { describe, expect, it } from 'vitest';
import { colorsEnabled, styles } from '../../examples/support/colors.js';

const tty = { isTTY: true };
const pipe = { isTTY: false };

describe('example colours', () => {
  it('are on for a terminal with no preference set', () => {
    expect(colorsEnabled(tty, {})).toBe(true);
  });

  it('are off when stdout is piped or TERM is dumb', () => {
    expect(colorsEnabled(pipe, {})).toBe(false);
    expect(colorsEnabled({}, {})).toBe(false);
    expect(colorsEnabled(tty, { TERM: 'dumb' })).toBe(false);
  });

  it('are off on a terminal with a non-empty NO_COLOR', () => {
    expect(colorsEnabled(tty, { NO_COLOR: '1' })).toBe(false);
    expect(colorsEnabled(tty, { NO_COLOR: '' })).toBe(true);
  });

  it('follow FORCE_COLOR over NO_COLOR and the terminal check', () => {
    expect(colorsEnabled(pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(colorsEnabled(pipe, { FORCE_COLOR: '' })).toBe(true);
    expect(colorsEnabled(pipe, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(true);
    expect(colorsEnabled(tty, { FORCE_COLOR: '0' })).toBe(false);
    expect(colorsEnabled(tty, { FORCE_COLOR: 'false' })).toBe(false);
  });

  it('style text only when enabled', () => {
    expect(styles(false).bold('done')).toBe('done');
    expect(styles(true).bold('done')).toBe('\x1b[1mdone\x1b[0m');
    expect(styles(true).dim('x')).toBe('\x1b[2mx\x1b[0m');
  });
});
