import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBus } from '../../src/core/event-bus.js';
import type { Sandbox } from '../../src/core/sandbox.js';
import { BubblewrapSandbox, createSandboxTools, LocalProcessSandbox } from '../../src/sandbox/index.js';
import { FakeClock } from '../../src/testing/index.js';
import type { Tool, ToolContext } from '../../src/tools/types.js';

const ctx = (sandbox: Sandbox, toolCallId = 'call_search_1'): ToolContext => ({
  signal: new AbortController().signal,
  runId: 'run_1',
  toolCallId,
  emit: new EventBus({ runId: 'run_1', clock: new FakeClock() }),
  sandbox,
});

const queries: string[] = [];
const search = async (query: string, options: { maxResults?: number }) => {
  queries.push(query);
  if (query === 'boom') throw new Error('engine down');
  return Array.from({ length: options.maxResults ?? 5 }, (_, i) => ({
    title: `Hit ${i} for ${query}`,
    url: `https://example.org/${i}`,
    snippet: 's',
  }));
};

function scriptTool(sandbox: Sandbox, options = {}) {
  const tool = createSandboxTools(sandbox, { codeAct: true, search, ...options }).find(
    (t) => t.name === 'execute_script',
  ) as Tool;
  return (args: unknown, id?: string) => Promise.resolve(tool.execute(args, ctx(sandbox, id)));
}

describe.each([
  ['under bwrap (no network)', () => BubblewrapSandbox.create()],
  ['locally', () => LocalProcessSandbox.create()],
] as const)('tandem.search in CodeAct scripts %s', (_name, open) => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await open();
  });
  afterAll(() => sandbox.dispose());

  it('answers Python scripts through the host', async () => {
    const run = scriptTool(sandbox);
    const out = await run({
      code: 'hits = tandem.search("heat pumps", max_results=2)\nprint([h["title"] for h in hits])',
    });
    expect(out).toBe("exit code 0\nstdout:\n['Hit 0 for heat pumps', 'Hit 1 for heat pumps']\n");
  });

  it('answers Node scripts, and reports a failed search as an error the script sees', async () => {
    const run = scriptTool(sandbox);
    const out = await run({
      language: 'node',
      code: 'console.log(tandem.search("wind", { maxResults: 1 })[0].url); try { tandem.search("boom") } catch (e) { console.log(e.message) }',
    });
    expect(out).toBe('exit code 0\nstdout:\nhttps://example.org/0\nsearch failed: engine down\n');
  });

  it('stops answering past the per-script limit and leaves no socket behind', async () => {
    const run = scriptTool(sandbox, { maxScriptSearches: 2 });
    const out = await run(
      {
        code: 'for q in "abc":\n    try:\n        tandem.search(q)\n    except RuntimeError as e:\n        print(e)',
      },
      'call_limit',
    );
    expect(out).toContain('search failed: search limit of 2 per script reached');
    expect((await sandbox.listFiles('.tandem')).map((f) => f.path)).not.toContain('.tandem/b-calllimit.sock');
  });
});

it('tells the script search is not configured when it is not', async () => {
  const sandbox = await LocalProcessSandbox.create();
  try {
    const tool = createSandboxTools(sandbox, { codeAct: true }).find(
      (t) => t.name === 'execute_script',
    ) as Tool;
    expect(tool.description).not.toContain('tandem.search');
    const out = await Promise.resolve(tool.execute({ code: 'tandem.search("x")' }, ctx(sandbox)));
    expect(out).toContain('RuntimeError: web search is not configured for this sandbox');
  } finally {
    await sandbox.dispose();
  }
});
