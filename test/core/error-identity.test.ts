/**
 * One error identity: tandem errors are recognised by the brand they carry,
 * so `instanceof`, the guards and `name` hold for errors made by another
 * copy of the module (the other build, a duplicated install) as for our own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type * as core from '../../src/core/errors.js';
import {
  AbortError,
  ConfigError,
  isAbortError,
  isErrorOf,
  isModelError,
  isTandemError,
  ModelError,
  RunError,
  TandemError,
} from '../../src/core/errors.js';
import { StreamInterruptedError } from '../../src/model/resilience/errors.js';
import { SandboxError } from '../../src/sandbox/errors.js';
import { entry } from '../../tsup.config.js';

const BRANDS = Symbol.for('tandem-agents/error-brands');
const root = new URL('../../', import.meta.url);

/** A second, independent evaluation of a module, as a second build or install of the package gives. */
async function secondCopy<T>(path: string): Promise<T> {
  vi.resetModules();
  return (await import(/* @vite-ignore */ `${path}?copy`)) as T;
}

/** Every exported class whose instances are errors, by export name. */
function errorClasses(module: Record<string, unknown>): [string, typeof TandemError][] {
  return Object.entries(module).filter(
    (e): e is [string, typeof TandemError] =>
      typeof e[1] === 'function' && (e[1] as { prototype?: unknown }).prototype instanceof Error,
  );
}

describe('error brands', () => {
  it('every error carries the brands of its class chain, non-enumerable', () => {
    const error = new StreamInterruptedError(new ModelError('server', 'boom'), {} as never);
    expect((error as unknown as Record<symbol, unknown>)[BRANDS]).toEqual([
      'StreamInterruptedError',
      'ModelError',
      'TandemError',
    ]);
    expect(Object.getOwnPropertyDescriptor(error, BRANDS)?.enumerable).toBe(false);
    expect({ ...error } instanceof ModelError).toBe(false);
  });

  it('name is the literal brand, so renaming the class (as minifiers do) leaves it intact', async () => {
    const copy = await secondCopy<typeof core>('../../src/core/errors.ts');
    Object.defineProperty(copy.ModelError, 'name', { value: 'Xr' });
    expect(new copy.ModelError('server', 'boom').name).toBe('ModelError');
    expect(new RunError('timeout', 'late').name).toBe('RunError');
  });

  it('instanceof checks the brand: a subclass instance matches its parents, never the reverse', () => {
    const interrupted = new StreamInterruptedError(new ModelError('server', 'boom'), {} as never);
    expect(interrupted instanceof ModelError).toBe(true);
    expect(interrupted instanceof TandemError).toBe(true);
    expect(interrupted instanceof Error).toBe(true);
    expect(new ModelError('server', 'boom') instanceof StreamInterruptedError).toBe(false);
    expect(new ConfigError('bad') instanceof ModelError).toBe(false);
  });

  it('instanceof is false for non-errors and for errors without a brand', () => {
    for (const value of [
      undefined,
      null,
      'ModelError',
      42,
      {},
      new Error('plain'),
      { [BRANDS]: 'ModelError' },
    ]) {
      expect(value instanceof ModelError).toBe(false);
      expect(isTandemError(value)).toBe(false);
    }
  });

  it('a value carrying the brand is recognised, whatever made it', () => {
    const foreign = { kind: 'rate_limit', [BRANDS]: ['ModelError', 'TandemError'] };
    expect(foreign instanceof ModelError).toBe(true);
    expect(isModelError(foreign)).toBe(true);
    expect(foreign instanceof RunError).toBe(false);
  });

  it('errors from a second copy of the module pass instanceof and the guards of the first, both ways', async () => {
    const copy = await secondCopy<typeof core>('../../src/core/errors.ts');
    expect(copy.ModelError).not.toBe(ModelError);
    const theirs = new copy.ModelError('rate_limit', 'slow down', { retryAfterMs: 5 });
    expect(theirs instanceof ModelError).toBe(true);
    expect(theirs instanceof TandemError).toBe(true);
    expect(theirs instanceof RunError).toBe(false);
    expect(isModelError(theirs) && theirs.retryable && theirs.retryAfterMs).toBe(5);
    expect(isErrorOf(theirs, ModelError)).toBe(true);
    expect(new ModelError('server', 'x') instanceof copy.ModelError).toBe(true);
    expect(copy.isTandemError(new ConfigError('bad'))).toBe(true);
  });

  it('an adapter error class from a second copy is recognised by its class and by TandemError', async () => {
    const copy = await secondCopy<{ SandboxError: typeof SandboxError }>('../../src/sandbox/errors.ts');
    const theirs = new copy.SandboxError('timeout', 'too slow');
    expect(isErrorOf(theirs, SandboxError)).toBe(true);
    expect(theirs instanceof TandemError).toBe(true);
    expect(isErrorOf(theirs, ModelError)).toBe(false);
  });

  it('isAbortError recognises aborts from a second copy as well as platform aborts', async () => {
    const copy = await secondCopy<typeof core>('../../src/core/errors.ts');
    expect(isAbortError(new copy.AbortError('stop'))).toBe(true);
    expect(isAbortError(new copy.ModelError('aborted', 'stop'))).toBe(true);
    expect(isAbortError(new copy.ModelError('timeout', 'late'))).toBe(false);
    expect(isAbortError(new DOMException('stop', 'AbortError'))).toBe(true);
    expect(isAbortError(new RunError('aborted', 'stop'))).toBe(false);
    expect(isAbortError(new AbortError())).toBe(true);
  });
});

describe('user subclasses', () => {
  class QuotaError extends ModelError {}
  class AcmeQuotaError extends ModelError {
    static override readonly brand: string = 'AcmeQuotaError';
  }

  it('a subclass without a brand matches its own instances only, and its parents match it', () => {
    const quota = new QuotaError('rate_limit', 'quota');
    expect(quota instanceof QuotaError).toBe(true);
    expect(quota instanceof ModelError).toBe(true);
    expect(isModelError(quota)).toBe(true);
    expect(quota.name).toBe('QuotaError');
    expect(new ModelError('rate_limit', 'x') instanceof QuotaError).toBe(false);
  });

  it('a subclass declaring a brand is recognised by it, like ours', () => {
    const quota = new AcmeQuotaError('rate_limit', 'quota');
    expect(quota.name).toBe('AcmeQuotaError');
    expect({ [BRANDS]: ['AcmeQuotaError'] } instanceof AcmeQuotaError).toBe(true);
    expect(new QuotaError('rate_limit', 'x') instanceof AcmeQuotaError).toBe(false);
  });
});

describe('every error class declares its own brand', () => {
  let exported: [string, string, typeof TandemError][];
  beforeAll(async () => {
    exported = [];
    for (const file of Object.values(entry)) {
      const module = await import(/* @vite-ignore */ new URL(file, root).href);
      for (const [name, type] of errorClasses(module)) exported.push([file, name, type]);
    }
  });

  it('each exported error class of each entry point is a TandemError with its own brand equal to its name', () => {
    const names = new Set(exported.map(([, name]) => name));
    const some = ['TandemError', 'ModelError', 'SandboxError', 'QueueError', 'McpToolError', 'ScriptError'];
    expect([...names]).toEqual(expect.arrayContaining(some));
    const wrong = exported
      .filter(([, name, type]) => !(Object.hasOwn(type, 'brand') && type.brand === name))
      .map(([file, name]) => `${file}: ${name}`);
    expect(wrong).toEqual([]);
  });

  it('each error class in src, exported or not, declares a brand equal to its name', () => {
    const src = new URL('src/', root);
    const missing: string[] = [];
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    for (const file of files) {
      const text = readFileSync(new URL(file, src), 'utf8');
      for (const match of text.matchAll(/class (\w+)(?:<[^{]*?>)? extends \w*Error\b[^{]*\{/g)) {
        const rest = text.slice((match.index ?? 0) + match[0].length);
        const body = rest.split(/^(?:export )?(?:abstract )?class /m)[0] ?? '';
        if (!body.includes(`readonly brand: string = '${match[1]}';`)) {
          missing.push(`${file}: ${match[1]}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
