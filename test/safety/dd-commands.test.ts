import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkShell, defineTool, Executor, Guardrails } from '../../src/index.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';

/** Runs one call of `tool` with `args` under the default tool guardrails; what ran and what the model was told. */
async function callThroughGuard(tool: 'execute_code' | 'shell_exec', args: Record<string, string>) {
  const runtime = testRuntime();
  const ran: unknown[] = [];
  const tools = [
    defineTool({
      name: 'execute_code',
      description: 'Run Python code',
      parameters: z.object({ code: z.string() }),
      execute: (a) => {
        ran.push(a);
        return 'ok';
      },
    }),
    defineTool({
      name: 'shell_exec',
      description: 'Run a shell command',
      parameters: z.object({ command: z.string() }),
      execute: (a) => {
        ran.push(a);
        return 'ok';
      },
    }),
  ];
  const model = new ScriptedModel([{ toolCalls: [{ id: 'c1', name: tool, args }] }, { text: 'Done.' }]);
  const guardrails = new Guardrails({ clock: runtime.clock });
  const executor = new Executor({ model, tools, runtime, safety: { gate: guardrails.toolGate() } });
  await executor.run('Make the file.').result;
  return { ran, told: JSON.stringify(model.requests[1]!.messages.at(-1)) };
}

describe('dd commands that destroy data', () => {
  it.each([
    ['shell_exec', { command: 'dd if=/dev/zero of=x' }],
    ['shell_exec', { command: 'dd if=/dev/urandom of=/home/me/data.db bs=1M' }],
    ['shell_exec', { command: 'sudo dd if=image.iso of=/dev/sda' }],
    ['shell_exec', { command: 'dd if=/dev/zero bs=1M count=100 > x' }],
    ['execute_code', { code: 'import os\nos.system("dd if=/dev/zero of=x")' }],
    ['execute_code', { code: 'subprocess.run(["dd", "if=/dev/zero", "of=x", "bs=1M"])' }],
    ['execute_code', { code: "subprocess.call('dd if=/dev/random of=/dev/nvme0n1', shell=True)" }],
  ] as const)('are blocked in %s: %j', async (tool, args) => {
    const { ran, told } = await callThroughGuard(tool, args);
    expect(ran).toEqual([]);
    expect(told).toContain('Tool blocked: Command');
  });

  it.each([
    'dd if=/dev/sda of=backup.img',
    'dd if=input.img of=copy.img bs=4M',
    'dd if=/dev/zero of=/dev/null bs=1M count=100',
    'dd if=/dev/urandom bs=16 count=1 | base64',
  ])('lets %j run: it wipes nothing', async (command) => {
    expect(checkShell(command)).toEqual({ ok: true });
    const { ran } = await callThroughGuard('shell_exec', { command });
    expect(ran).toEqual([{ command }]);
  });
});
