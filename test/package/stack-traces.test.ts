/**
 * What a user reads when an error escapes: every stack frame in the built
 * package points at a line of ordinary length, the line that threw. The
 * package was once minified, and each frame pointed into a line of thousands
 * of characters.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, packageRoot } from './built-package.js';

/** One `at …(file:line:column)` frame of a stack trace. */
interface Frame {
  file: string;
  line: number;
}

// A function's throw, then a class method's (a minified build put a whole class on one line).
const THROWS = `
  const lookup = () =>
    defineTool({ name: 'lookup', description: 'Looks up', parameters: jsonSchema({ type: 'object' }), execute: () => '' });
  for (const fail of [() => jsonSchema(42), () => new ToolRegistry([lookup(), lookup()])]) {
    try {
      fail();
    } catch (error) {
      console.log(error.stack);
    }
  }`;

/** The stack of an error thrown by the built package, loaded by its name as an app loads it. */
function stackFrom(format: 'esm' | 'cjs'): string {
  const script =
    format === 'esm'
      ? `import { defineTool, jsonSchema, ToolRegistry } from 'tandem-agents';\n${THROWS}`
      : `const { defineTool, jsonSchema, ToolRegistry } = require('tandem-agents');\n${THROWS}`;
  const inputType = format === 'esm' ? 'module' : 'commonjs';
  return execFileSync(process.execPath, [`--input-type=${inputType}`, '-e', script], {
    cwd: packageRoot,
    encoding: 'utf8',
  });
}

/** The frames of a stack that point into dist/. */
function distFrames(stack: string): Frame[] {
  const frames = [...stack.matchAll(/^\s+at (?:.*\()?(.+?):(\d+):\d+\)?$/gm)].map((m) => ({
    file: (m[1] ?? '').startsWith('file:') ? fileURLToPath(m[1] ?? '') : (m[1] ?? ''),
    line: Number(m[2]),
  }));
  return frames.filter((f) => f.file.startsWith(`${packageRoot}dist/`));
}

function sourceLine(frame: Frame): string {
  return readFileSync(frame.file, 'utf8').split('\n')[frame.line - 1] ?? '';
}

describe('stack traces from the built package', () => {
  beforeAll(() => assertBuilt());

  for (const format of ['esm', 'cjs'] as const) {
    it(`${format}: each frame in dist/ points at a line under 200 characters`, () => {
      const frames = distFrames(stackFrom(format));
      expect(frames.length).toBeGreaterThan(2);
      for (const frame of frames) {
        expect(sourceLine(frame).length, `${frame.file}:${frame.line}`).toBeLessThan(200);
      }
    });

    it(`${format}: the first frame is the line that throws, as written in the source`, () => {
      const [top] = distFrames(stackFrom(format));
      expect(sourceLine(top as Frame)).toMatch(
        /throw new (?:\w+\.)?ConfigError\(.jsonSchema\(\) takes a JSON Schema object.\)/,
      );
    });
  }
});
