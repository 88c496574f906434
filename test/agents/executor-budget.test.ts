import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Executor } from '../../src/agents/index.js';
import { ApprovalGate } from '../../src/safety/approvals/approval-gate.js';
import { MemoryInterruptBus } from '../../src/safety/approvals/interrupt-bus.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { defineTool } from '../../src/tools/types.js';

const deploy = defineTool({
  name: 'deploy',
  description: 'Deploys',
  parameters: z.object({}),
  risk: 'risky',
  execute: () => 'deployed',
});

describe('Executor wall-clock budget', () => {
  it('does not count the time a human takes to answer an approval', async () => {
    const runtime = testRuntime();
    const bus = new MemoryInterruptBus();
    const approvals = new ApprovalGate({ bus, runtime, timeoutMs: 60_000 });
    const model = new ScriptedModel([{ toolCalls: [{ name: 'deploy', args: {} }] }, { text: 'done' }]);
    const executor = new Executor({
      model,
      tools: [deploy],
      safety: { gate: approvals.gate },
      runtime,
      limits: { timeoutMs: 1_000 },
    });
    const run = executor.run('deploy it');
    let asked = '';
    run.on('interrupt', (e) => {
      asked = e.interrupt.id;
    });
    await runtime.clock.advance(0);
    expect(asked).not.toBe('');
    await runtime.clock.advance(30_000);
    await bus.respond(asked, { action: 'approve' });
    const result = await run.result;
    expect(result.output).toBe('done');
  });

  it('still ends a run that overruns its budget outside human waits', async () => {
    const runtime = testRuntime();
    const model = new ScriptedModel([{ hang: true }]);
    const executor = new Executor({ model, runtime, limits: { timeoutMs: 1_000 } });
    const run = executor.run('hang');
    await runtime.clock.advance(1_000);
    expect(await run.result).toMatchObject({ status: 'partial', error: { kind: 'timeout' } });
  });
});
