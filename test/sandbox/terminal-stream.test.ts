import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EventBus } from '../../src/core/event-bus.js';
import type { TandemEvent } from '../../src/core/events.js';
import type { Sandbox } from '../../src/core/sandbox.js';
import { reduceProgress } from '../../src/index.js';
import { BubblewrapSandbox, createSandboxTools, LocalProcessSandbox } from '../../src/sandbox/index.js';
import { initialProgress } from '../../src/state/progress-types.js';
import { FakeClock } from '../../src/testing/index.js';
import type { Tool, ToolContext } from '../../src/tools/types.js';

/** A tool by name, its `execute` always a promise. */
function byName(tools: Tool[], name: string) {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return { ...tool, execute: async (args: unknown, ctx: ToolContext) => tool.execute(args, ctx) };
}

/** A tool context whose events land in `events`, as the executor's would. */
function recording(sandbox: Sandbox) {
  const bus = new EventBus({ runId: 'run_1', clock: new FakeClock() });
  const events: TandemEvent[] = [];
  bus.on('*', (event) => events.push(event));
  const ctx: ToolContext = {
    signal: new AbortController().signal,
    runId: 'run_1',
    toolCallId: 'call_1',
    emit: bus.scope({ parentId: 'call_1' }),
    sandbox,
  };
  return { ctx, events, bus };
}

const terminalText = (events: TandemEvent[], type: 'terminal_output' | 'terminal_error') =>
  events
    .filter((e): e is TandemEvent<typeof type> => e.type === type)
    .map((e) => e.text)
    .join('');

const sandboxes: Array<[string, () => Promise<Sandbox>]> = [
  ['locally', () => LocalProcessSandbox.create()],
  ['under bwrap', () => BubblewrapSandbox.create()],
];

describe.each(sandboxes)('live terminal output %s', (_name, open) => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await open();
  });
  afterAll(() => sandbox.dispose());

  it('arrives as terminal events while the script still runs, then the result', async () => {
    const clock = new FakeClock();
    const exec = byName(createSandboxTools(sandbox, { clock }), 'execute_code');
    const { ctx, events } = recording(sandbox);
    const code = 'echo first; while [ ! -f go ]; do sleep 0.02; done; echo second >&2; echo done';
    let settled = false;
    const running = exec.execute({ language: 'bash', code }, ctx).finally(() => {
      settled = true;
    });
    // The script waits for `go`: output seen now was streamed, not returned at the end.
    await vi.waitFor(
      () => {
        clock.fireNext((ms) => ms === 100);
        expect(terminalText(events, 'terminal_output')).toBe('first\n');
      },
      { timeout: 15_000 },
    );
    expect(settled).toBe(false);
    expect(events[0]).toMatchObject({
      type: 'terminal_command',
      id: 'call_1',
      command: code,
      language: 'bash',
      parentId: 'call_1',
    });
    await sandbox.writeFile('go', '');
    expect(await running).toBe('exit code 0\nstdout:\nfirst\ndone\n\nstderr:\nsecond\n');
    expect(terminalText(events, 'terminal_output')).toBe('first\ndone\n');
    expect(terminalText(events, 'terminal_error')).toBe('second\n');
    expect(events.at(-1)).toMatchObject({
      type: 'terminal_complete',
      id: 'call_1',
      exitCode: 0,
      timedOut: false,
    });
  });
});

describe('terminal streaming bounds', () => {
  let sandbox: LocalProcessSandbox;
  beforeAll(async () => {
    sandbox = await LocalProcessSandbox.create();
  });
  afterAll(() => sandbox.dispose());

  it('coalesces many small writes into few events that add up to the output', async () => {
    const exec = byName(createSandboxTools(sandbox, { clock: new FakeClock() }), 'execute_code');
    const { ctx, events } = recording(sandbox);
    const code = 'for i in range(5000): print(i, flush=True)';
    await exec.execute({ language: 'python', code }, ctx);
    const expected = Array.from({ length: 5000 }, (_, i) => `${i}\n`).join('');
    expect(terminalText(events, 'terminal_output')).toBe(expected);
    // 23 890 characters: one event per 16 K filled, the rest at the end — never one per line.
    expect(events.filter((e) => e.type === 'terminal_output').length).toBeLessThanOrEqual(3);
  });

  it('streams no more than the capture cap', async () => {
    const exec = byName(
      createSandboxTools(sandbox, { clock: new FakeClock(), maxOutputBytes: 1000 }),
      'execute_code',
    );
    const { ctx, events } = recording(sandbox);
    await exec.execute({ language: 'node', code: 'process.stdout.write("x".repeat(50000))' }, ctx);
    expect(terminalText(events, 'terminal_output')).toBe('x'.repeat(1000));
    expect(events.at(-1)).toMatchObject({ type: 'terminal_complete', truncated: true });
  });

  it('never splits a character across two chunks', async () => {
    const chunks: string[] = [];
    const code =
      'process.stdout.write(Buffer.from([0xe2, 0x82])); setTimeout(() => process.stdout.write(Buffer.from([0xac])), 50)';
    const result = await sandbox.exec('', { language: 'node', code, onOutput: (c) => chunks.push(c.text) });
    expect(result.stdout).toBe('€');
    expect(chunks.join('')).toBe('€');
    expect(chunks.join('')).not.toContain('\uFFFD');
  });

  it('feeds the progress store a terminal tail with isStreaming, and the changed paths', async () => {
    const clock = new FakeClock();
    const tools = createSandboxTools(sandbox, { clock });
    const { ctx, events } = recording(sandbox);
    ctx.emit.emit('tool_call', { id: 'call_1', name: 'execute_code', args: {} });
    const running = byName(tools, 'execute_code').execute(
      { language: 'bash', code: 'echo hello; while [ ! -f go2 ]; do sleep 0.02; done' },
      ctx,
    );
    await vi.waitFor(() => {
      clock.fireNext((ms) => ms === 100);
      expect(terminalText(events, 'terminal_output')).toBe('hello\n');
    });
    const during = events.reduce((s, e) => reduceProgress(s, e), initialProgress());
    expect(during.tools[0]?.terminal).toMatchObject({ output: 'hello\n', isStreaming: true });
    await sandbox.writeFile('go2', '');
    await running;
    await byName(tools, 'write_file').execute({ path: 'out/report.md', content: '# r' }, ctx);
    const after = events.reduce((s, e) => reduceProgress(s, e), initialProgress());
    expect(after.tools[0]?.terminal).toMatchObject({ isStreaming: false, exitCode: 0 });
    expect(after.workspace).toEqual(['out/report.md']);
  });
});
