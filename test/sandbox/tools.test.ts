import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Executor } from '../../src/agents/executor/index.js';
import { SandboxTodoStore } from '../../src/agents/orchestrator/index.js';
import { EventBus } from '../../src/core/event-bus.js';
import type { ToolMessage } from '../../src/core/messages.js';
import { BubblewrapSandbox } from '../../src/sandbox/bubblewrap.js';
import { LocalProcessSandbox } from '../../src/sandbox/local.js';
import { createSandboxTools } from '../../src/sandbox/tools.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import type { Tool, ToolContext } from '../../src/tools/types.js';

function ctx(sandbox?: LocalProcessSandbox, signal = new AbortController().signal): ToolContext {
  const bus = new EventBus({ runId: 'run_1', clock: new FakeClock() });
  return { signal, runId: 'run_1', toolCallId: 'call_1', emit: bus, sandbox };
}

function byName(tools: Tool[], name: string): Tool {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
}

describe('sandbox tools', () => {
  let sandbox: LocalProcessSandbox;
  beforeEach(async () => {
    sandbox = await LocalProcessSandbox.create();
  });
  afterEach(() => sandbox.dispose());

  it('declares risks, parallel safety and names', () => {
    const tools = createSandboxTools(sandbox);
    expect(tools.map((t) => [t.name, t.risk, t.parallelSafe])).toEqual([
      ['execute_code', 'risky', false],
      ['read_file', 'safe', true],
      ['write_file', 'moderate', false],
      ['edit_file', 'moderate', false],
      ['apply_patch', 'moderate', false],
      ['list_files', 'safe', true],
    ]);
    expect(createSandboxTools(sandbox, { codeAct: true, executeRisk: 'moderate' }).at(-1)).toMatchObject({
      name: 'execute_script',
      risk: 'moderate',
    });
  });

  it('runs code and reports exit code, stdout, stderr, timeouts and truncation', async () => {
    const exec = byName(createSandboxTools(sandbox, { maxOutputBytes: 1000 }), 'execute_code');
    expect(
      await exec.execute({ language: 'python', code: 'import sys; print("out"); sys.exit(2)' }, ctx()),
    ).toBe('exit code 2\nstdout:\nout\n');
    const slow = await exec.execute({ language: 'bash', code: 'sleep 30', timeoutMs: 300 }, ctx());
    expect(slow).toMatch(/^timed out after \d+ ms \(process tree killed\)\n\(no output\)$/);
    const big = (await exec.execute(
      { language: 'node', code: 'process.stdout.write("x".repeat(5000))' },
      ctx(),
    )) as string;
    expect(big).toContain('[output truncated at the capture limit]');
    expect(big.length).toBeLessThan(1100);
  });

  it('uses ctx.sandbox when created without one, and fails with a typed error when there is none', async () => {
    const tools = createSandboxTools();
    await byName(tools, 'write_file').execute({ path: 'notes/a.txt', content: 'hello' }, ctx(sandbox));
    expect(await byName(tools, 'read_file').execute({ path: 'notes/a.txt' }, ctx(sandbox))).toBe('hello');
    expect(await byName(tools, 'list_files').execute({ recursive: true }, ctx(sandbox))).toBe(
      'd notes/\nf notes/a.txt (5)',
    );
    await expect(byName(tools, 'read_file').execute({ path: 'x' }, ctx())).rejects.toMatchObject({
      kind: 'unavailable',
    });
  });

  it('runs CodeAct scripts with the helper library, in python and node', async () => {
    const script = byName(createSandboxTools(sandbox, { codeAct: true }), 'execute_script');
    await sandbox.writeFile('in.txt', '3');
    const py = await script.execute(
      {
        code: [
          'n = int(tandem.read("in.txt"))',
          'tandem.write("out/sq.txt", str(n * n))',
          'print(tandem.list("out"), tandem.run("echo hi")["stdout"].strip())',
        ].join('\n'),
      },
      ctx(),
    );
    expect(py).toBe("exit code 0\nstdout:\n['out/sq.txt'] hi\n");
    expect(await sandbox.readFile('out/sq.txt')).toBe('9');
    const node = await script.execute(
      {
        language: 'node',
        code: 'tandem.write("n.txt", tandem.read("out/sq.txt") + "!"); console.log(tandem.run("cat n.txt").stdout)',
      },
      ctx(),
    );
    expect(node).toBe('exit code 0\nstdout:\n9!\n');
  });

  it('lets an Executor write and run code in a bwrap sandbox given as its sandbox', async () => {
    const bwrap = await BubblewrapSandbox.create();
    try {
      const model = new ScriptedModel([
        {
          toolCalls: [
            {
              name: 'write_file',
              args: { path: 'fib.py', content: 'a,b=0,1\nfor _ in range(10): a,b=b,a+b\nprint(a)' },
            },
          ],
        },
        { toolCalls: [{ name: 'execute_code', args: { language: 'bash', code: 'python3 fib.py' } }] },
        { text: 'fib(10) = 55' },
      ]);
      const executor = new Executor({ model, tools: createSandboxTools(), sandbox: bwrap });
      const result = await executor.run('Compute fib(10)').result;
      expect(result.output).toBe('fib(10) = 55');
      const toolMessages = result.messages.filter((m): m is ToolMessage => m.role === 'tool');
      expect(JSON.stringify(toolMessages.at(-1))).toContain('exit code 0\\nstdout:\\n55');
    } finally {
      await bwrap.dispose();
    }
  });

  it("keeps the orchestrator's todo checklist in a file of a bwrap sandbox, visible to its code", async () => {
    const bwrap = await BubblewrapSandbox.create();
    try {
      const store = new SandboxTodoStore(bwrap);
      await store.write('# Task Plan\n- [ ] Step 1: analyse\n');
      expect(await store.read()).toBe('# Task Plan\n- [ ] Step 1: analyse\n');
      expect((await bwrap.exec('cat /workspace/.tandem/todo.md')).stdout).toContain('Step 1: analyse');
    } finally {
      await bwrap.dispose();
    }
  });
});
