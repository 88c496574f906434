/**
 * One error identity in the BUILT package: an error made by the CJS build is
 * retried, recovered from and caught by the ESM build's code, and the other
 * way round, for every subpath; and within one build every subpath shares
 * one copy of each class. Users mix builds without knowing it (a CJS
 * provider package, Jest next to an ESM app), so both directions matter.
 */
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CompressHook, ExecutorOptions } from '../../src/index.js';
import { assertBuilt, packageEntries, packageRoot } from './built-package.js';

type Root = typeof import('../../src/index.js');
type Testing = typeof import('../../src/testing/index.js');
type OpenAI = typeof import('../../src/providers/openai/index.js');
type Sandbox = typeof import('../../src/sandbox/index.js');
type Fs = typeof import('../../src/fs/index.js');
type Module = Record<string, unknown>;
type Format = 'ESM' | 'CJS';
type ErrorClass = new (...args: unknown[]) => Error & { kind: string };

/** One subpath as each build exports it. */
type Builds = Record<Format, Module>;

const requireCjs = createRequire(packageRoot);
const subpaths = new Map<string, Builds>();

async function loadBuilds(): Promise<void> {
  for (const [specifier, entry] of packageEntries()) {
    subpaths.set(specifier, {
      ESM: await import(/* @vite-ignore */ pathToFileURL(`${packageRoot}${entry.import.default}`).href),
      CJS: requireCjs(`${packageRoot}${entry.require.default}`),
    });
  }
}

function build<T>(specifier: string, format: Format): T {
  const builds = subpaths.get(specifier);
  if (!builds) throw new Error(`${specifier} is not a subpath of the package`);
  return builds[format] as T;
}

function errorClasses(module: Module): [string, ErrorClass][] {
  return Object.entries(module).filter(
    (e): e is [string, ErrorClass] =>
      typeof e[1] === 'function' && (e[1] as { prototype?: unknown }).prototype instanceof Error,
  );
}

/** Any arguments do: every constructor takes (kind or value, message or value, options). */
function sample(type: ErrorClass): Error & { kind: string } {
  return new type('server', 'boom', {});
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

const other = (format: Format): Format => (format === 'ESM' ? 'CJS' : 'ESM');
const FORMATS: Format[] = ['ESM', 'CJS'];

beforeAll(async () => {
  assertBuilt();
  await loadBuilds();
});

describe('error classes of every subpath, across the ESM and CJS builds', () => {
  it('the subpaths that export error classes are found (the check below is not vacuous)', () => {
    const withErrors = [...subpaths].filter(([, b]) => errorClasses(b.ESM).length > 0).map(([s]) => s);
    expect(withErrors).toEqual(
      expect.arrayContaining([
        'tandem-agents',
        'tandem-agents/testing',
        'tandem-agents/sandbox',
        'tandem-agents/mcp',
        'tandem-agents/queue',
      ]),
    );
  });

  it.each(FORMATS)(
    'an error made by the %s build is an instance of the same class and of TandemError in the other',
    (from) => {
      const to = other(from);
      const rootTo = build<Root>('tandem-agents', to);
      const problems: string[] = [];
      for (const [specifier, builds] of subpaths) {
        const targets = new Map(errorClasses(builds[to]));
        for (const [name, type] of errorClasses(builds[from])) {
          const error = sample(type);
          const target = targets.get(name);
          if (!target || !(error instanceof target))
            problems.push(`${specifier} ${name}: not instanceof ${to} ${name}`);
          if (!(error instanceof rootTo.TandemError))
            problems.push(`${specifier} ${name}: not a ${to} TandemError`);
          if (!rootTo.isTandemError(error)) problems.push(`${specifier} ${name}: isTandemError false`);
        }
      }
      expect(problems).toEqual([]);
    },
  );

  it.each(FORMATS)('in the %s build every error class keeps its literal name and brand', (format) => {
    const wrong = [...subpaths].flatMap(([specifier, builds]) =>
      errorClasses(builds[format])
        .filter(([name, type]) => sample(type).name !== name || (type as { brand?: string }).brand !== name)
        .map(([name]) => `${specifier} ${name}`),
    );
    expect(wrong).toEqual([]);
  });

  it.each(FORMATS)(
    'within the %s build every subpath extends the one TandemError of the root entry',
    (format) => {
      const base = build<Root>('tandem-agents', format).TandemError.prototype;
      const strays = [...subpaths].flatMap(([specifier, builds]) =>
        errorClasses(builds[format])
          .filter(
            ([, type]) =>
              type.prototype !== base && !Object.prototype.isPrototypeOf.call(base, type.prototype),
          )
          .map(([name]) => `${specifier} ${name}`),
      );
      expect(strays).toEqual([]);
    },
  );
});

describe.each(FORMATS)('errors thrown by the %s adapters', (from) => {
  const to = other(from);

  it('a checkpoint error from tandem-agents/fs is caught by the other build', () => {
    const { FileCheckpointStore } = build<Fs>('tandem-agents/fs', from);
    const error = thrown(() => new FileCheckpointStore({ dir: tmpdir() }).pathOf(''));
    const root = build<Root>('tandem-agents', to);
    expect(error).toBeInstanceOf(root.CheckpointError);
    expect(root.isErrorOf(error, root.TandemError) && error.kind).toBe('invalid_run_id');
  });

  it('a sandbox error from tandem-agents/sandbox is caught by the other build', async () => {
    const { LocalProcessSandbox } = build<Sandbox>('tandem-agents/sandbox', from);
    const sandbox = await LocalProcessSandbox.create();
    try {
      const error = await sandbox.readFile('missing.txt').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(build<Sandbox>('tandem-agents/sandbox', to).SandboxError);
      expect(error).toBeInstanceOf(build<Root>('tandem-agents', to).TandemError);
      expect((error as { kind: string }).kind).toBe('not_found');
    } finally {
      await sandbox.dispose();
    }
  });
});

const SUCCESS = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
};

/** A `fetch` answering from `replies` in order, as an OpenAI-compatible server would. */
function scriptedFetch(replies: Array<{ status: number; body: unknown; headers?: Record<string, string> }>) {
  const calls: unknown[] = [];
  const fetch = async (_url: unknown, init?: { body?: unknown }): Promise<Response> => {
    calls.push(JSON.parse(String(init?.body)));
    const reply = replies[calls.length - 1];
    if (!reply) throw new Error('unexpected call');
    return new Response(JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json', ...reply.headers },
    });
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}

const PAIRS: [Format, Format][] = [
  ['CJS', 'ESM'],
  ['ESM', 'CJS'],
  ['CJS', 'CJS'],
  ['ESM', 'ESM'],
];

describe.each(PAIRS)('a %s OpenAI model under the %s resilient invoker', (modelBuild, invokerBuild) => {
  const request = { messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }] };

  function setup(replies: Parameters<typeof scriptedFetch>[0]) {
    const server = scriptedFetch(replies);
    const model = build<OpenAI>('tandem-agents/openai', modelBuild).createOpenAI({
      apiKey: 'test',
      fetch: server.fetch,
    })('gpt-4o-mini');
    const runtime = build<Testing>('tandem-agents/testing', 'ESM').testRuntime();
    const invoker = build<Root>('tandem-agents', invokerBuild).createResilientInvoker({
      models: [model],
      runtime,
    });
    return { server, invoker, clock: runtime.clock };
  }

  it('a 429 is retried after the wait the server asks for, then succeeds', async () => {
    const { server, invoker, clock } = setup([
      { status: 429, body: { error: { message: 'slow down' } }, headers: { 'retry-after-ms': '250' } },
      { status: 200, body: SUCCESS },
    ]);
    const response = await clock.run(invoker.invoke(request, { stream: false }));
    expect(response.message.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(server.calls).toHaveLength(2);
    expect(clock.now()).toBeGreaterThanOrEqual(250);
  });

  it('a context-length error is recovered by compressing the request, then succeeds', async () => {
    const { server, invoker, clock } = setup([
      {
        status: 400,
        body: {
          error: { message: 'maximum context length is 8192 tokens', code: 'context_length_exceeded' },
        },
      },
      { status: 200, body: SUCCESS },
    ]);
    const reasons: string[] = [];
    const compress: CompressHook = async (r, info) => {
      reasons.push(info.reason);
      return r;
    };
    const response = await clock.run(invoker.invoke(request, { stream: false, compress }));
    expect(response.message.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(reasons).toEqual(['context_length']);
    expect(server.calls).toHaveLength(2);
  });
});

describe.each(PAIRS.slice(0, 2))('a %s scripted model under an %s Executor', (modelBuild, executorBuild) => {
  const root = () => build<Root>('tandem-agents', executorBuild);
  const modelSide = () => ({
    ...build<Root>('tandem-agents', modelBuild),
    ...build<Testing>('tandem-agents/testing', modelBuild),
  });

  function execute(error: Error, extra: Partial<ExecutorOptions> = {}) {
    const { ScriptedModel, testRuntime } = modelSide();
    const model = new ScriptedModel([{ error }, { text: 'done' }]);
    const runtime = testRuntime();
    const invoker = root().createResilientInvoker({ models: [model], runtime });
    const executor = new (root().Executor)({
      model,
      runtime,
      stream: false,
      ...extra,
      resilience: { invoker: () => invoker, ...extra?.resilience },
    });
    return { model, result: runtime.clock.run(executor.run('hi').result) };
  }

  it('a rate_limit ModelError is retried and the run succeeds', async () => {
    const { model, result } = execute(
      new (modelSide().ModelError)('rate_limit', 'slow down', { retryAfterMs: 5 }),
    );
    expect((await result).output).toBe('done');
    expect(model.calls).toBe(2);
  });

  it('a context_length ModelError is recovered through the compress hook and the run succeeds', async () => {
    const compressed: string[] = [];
    const manager: NonNullable<ExecutorOptions['context']>['manager'] = () => ({
      prepareRequest: async (request) => request,
      compressHook: async (request, info) => {
        compressed.push(info.reason);
        return request;
      },
    });
    const error = new (modelSide().ModelError)('context_length', 'too long', { contextLimit: 4_000 });
    const { result } = execute(error, { context: { manager } });
    expect((await result).output).toBe('done');
    expect(compressed).toEqual(['context_length']);
  });

  it('a non-retryable ModelError fails the run with an error both builds recognise', async () => {
    const { result } = execute(new (modelSide().ModelError)('auth', 'bad key'));
    const settled = (await result) as { status: string; error?: unknown };
    expect(settled.status).toBe('failed');
    const error = settled.error;
    for (const format of FORMATS) {
      const { RunError, ModelError, isModelError } = build<Root>('tandem-agents', format);
      expect(error).toBeInstanceOf(RunError);
      expect((error as Error).cause).toBeInstanceOf(ModelError);
      expect(
        isModelError((error as Error).cause) && (error as Error & { cause: { kind: string } }).cause.kind,
      ).toBe('auth');
    }
  });
});
