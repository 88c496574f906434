import { describe, expect, it } from 'vitest';
import { stringifyOutput, truncateOutput } from '../../src/tools/output.js';
import { pathSegments, pathsDisjoint, pathsOverlap } from '../../src/tools/paths.js';

describe('truncateOutput', () => {
  it('keeps text within the limit as it is', () => {
    expect(truncateOutput('short', 10)).toEqual({ text: 'short', truncated: false });
  });

  it('keeps 70% head and 20% tail around a marker naming the cut', () => {
    const text = 'a'.repeat(700) + 'b'.repeat(1300) + 'c'.repeat(200);
    const { text: cut, truncated } = truncateOutput(text, 1000);
    expect(truncated).toBe(true);
    expect(cut).toBe(`${'a'.repeat(700)}\n\n[... truncated 1300 characters ...]\n\n${'c'.repeat(200)}`);
  });

  it('never splits a surrogate pair', () => {
    const text = `${'a'.repeat(6)}😀${'b'.repeat(200)}😀${'c'.repeat(1)}`;
    expect(truncateOutput(text, 10).text).toBe(`aaaaaa\n\n[... truncated 204 characters ...]\n\nc`);
    const long = `${'a'.repeat(69)}😀${'b'.repeat(500)}${'😀'.repeat(10)}`;
    const result = truncateOutput(long, 100).text;
    expect(result.startsWith(`${'a'.repeat(69)}\n\n`)).toBe(true);
    expect(result.endsWith('😀'.repeat(9))).toBe(true);
    expect(result).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });

  it('leaves text untruncated when the marker would make it longer', () => {
    expect(truncateOutput('x'.repeat(50), 40)).toEqual({ text: 'x'.repeat(50), truncated: false });
  });
});

describe('stringifyOutput', () => {
  it('falls back to String() when JSON fails or yields nothing', () => {
    expect(stringifyOutput(10n)).toBe('10');
    expect(stringifyOutput(() => 1)).toBe('() => 1');
  });
});

describe('path overlap', () => {
  it('normalises separators, dots and parent segments', () => {
    expect(pathSegments('./src\\lib/../a.ts')).toEqual(['src', 'a.ts']);
    expect(pathSegments('/a/../../b')).toEqual(['/', 'b']);
    expect(pathSegments('a/../../b')).toEqual(['..', 'b']);
  });

  it('overlaps when one path lies inside the other', () => {
    expect(pathsOverlap(pathSegments('src'), pathSegments('src/a.ts'))).toBe(true);
    expect(pathsOverlap(pathSegments('src/a.ts'), pathSegments('src/a.ts'))).toBe(true);
    expect(pathsOverlap(pathSegments('.'), pathSegments('src/a.ts'))).toBe(true);
    expect(pathsOverlap(pathSegments('src/a.ts'), pathSegments('src/ab.ts'))).toBe(false);
  });

  it('treats paths it cannot compare as overlapping', () => {
    expect(pathsOverlap(pathSegments('/work/a'), pathSegments('b'))).toBe(true);
    expect(pathsOverlap(pathSegments('../x'), pathSegments('b'))).toBe(true);
  });

  it('finds an overlap between any two calls', () => {
    expect(pathsDisjoint([[['a']], [['b']], [['c'], ['d']]])).toBe(true);
    expect(pathsDisjoint([[['a']], [['b']], [['c'], ['a', 'x']]])).toBe(false);
    expect(pathsDisjoint([[['a']], []])).toBe(true);
  });
});
