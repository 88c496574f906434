/**
 * A small glob matcher for artifact patterns: `*` (any characters but `/`),
 * `**` (any number of path segments), `?` (one character but `/`). A
 * pattern without `/` matches the file name at any depth, as `*.py` does in
 * `find -name`.
 * @module
 */

/** Compiles a glob to a RegExp over `/`-separated relative paths. */
export function globToRegExp(pattern: string): RegExp {
  const anchored = pattern.includes('/') ? pattern.replace(/^\.\//, '').replace(/^\//, '') : `**/${pattern}`;
  let source = '';
  for (let i = 0; i < anchored.length; i++) {
    const char = anchored[i] as string;
    if (char === '*' && anchored[i + 1] === '*') {
      const slashAfter = anchored[i + 2] === '/';
      // `**/` may match nothing at all, so `**/a` matches `a` too.
      source += slashAfter ? '(?:[^/]*/)*' : '.*';
      i += slashAfter ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** A predicate true for paths matching any of `patterns`. */
export function globMatcher(patterns: readonly string[]): (path: string) => boolean {
  const regexps = patterns.map(globToRegExp);
  return (path) => regexps.some((r) => r.test(path));
}
