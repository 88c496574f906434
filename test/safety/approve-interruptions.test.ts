import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ApprovalGate,
  defineTool,
  Executor,
  InterruptError,
  MemoryInterruptBus,
  type Message,
  Orchestrator,
  PausedState,
  type RunState,
  type Tool,
} from '../../src/index.js';
import { type ScriptEntry, ScriptedModel, testRuntime } from '../../src/testing/index.js';

/** A refund tool that needs approval (always, or per its arguments), with a ledger of the refunds it made. */
function refunds(needsApproval: boolean | ((args: { amount: number }) => boolean) = true) {
  const ledger: number[] = [];
  const tool = defineTool({
    name: 'refund',
    description: 'Refund an amount',
    parameters: z.object({ amount: z.number() }),
    needsApproval,
    execute: ({ amount }) => {
      ledger.push(amount);
      return `refunded ${amount}`;
    },
  });
  return { tool, ledger };
}

const refund = (amount: number, id = 'call_1'): ScriptEntry => ({
  toolCalls: [{ id, name: 'refund', args: { amount } }],
});

/** The results the model was sent in request `n`, by call id. */
function toolResultsSent(model: ScriptedModel, n: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const message of model.requests[n]?.messages ?? []) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) out[part.toolCallId] = String(part.content);
  }
  return out;
}

/** A JSON copy, as another process would read it back. */
const overTheWire = (state: unknown): unknown => JSON.parse(JSON.stringify(state));

describe('needsApproval: an Executor run that needs approval', () => {
  it('returns interrupted with the call in interruptions, and resumes after approve, running the tool once', async () => {
    const { tool, ledger } = refunds();
    const model = new ScriptedModel([refund(40), { text: 'Refunded 40.' }]);
    const executor = new Executor({ model, tools: [tool], runtime: testRuntime() });

    const paused = await executor.run('Refund 40').result;
    expect(paused.status).toBe('interrupted');
    expect(paused.interruptions).toEqual([
      expect.objectContaining({
        kind: 'approval',
        toolName: 'refund',
        args: { amount: 40 },
        callId: 'call_1',
      }),
    ]);
    expect(paused.interruptions?.[0]?.id).toMatch(/^int_[0-9a-f]{12}$/);
    expect(ledger).toEqual([]);

    const state = paused.state!;
    state.approve(paused.interruptions![0]!.id);
    const resumed = await executor.resume(state).result;
    expect(resumed.status).toBe('success');
    expect(resumed.output).toBe('Refunded 40.');
    expect(ledger).toEqual([40]);
    expect(toolResultsSent(model, 1)).toEqual({ call_1: 'refunded 40' });
  });

  it('tells the model the rejection message and never runs a rejected call', async () => {
    const { tool, ledger } = refunds();
    const model = new ScriptedModel([refund(900), { text: 'I could not refund it.' }]);
    const executor = new Executor({ model, tools: [tool], runtime: testRuntime() });

    const paused = await executor.run('Refund 900').result;
    paused.state!.reject(paused.interruptions![0]!.id, 'Refunds over 500 need a manager');
    const resumed = await executor.resume(paused.state!).result;

    expect(resumed.output).toBe('I could not refund it.');
    expect(ledger).toEqual([]);
    expect(toolResultsSent(model, 1).call_1).toContain(
      'User denied execution of refund: Refunds over 500 need a manager. The tool was not executed.',
    );
  });

  it('resumes in a new process from the JSON of the answered state', async () => {
    const first = refunds();
    const firstModel = new ScriptedModel([refund(40)]);
    const paused = await new Executor({ model: firstModel, tools: [first.tool], runtime: testRuntime() }).run(
      'Refund 40',
    ).result;
    paused.state!.approve(paused.interruptions![0]!.id);
    const saved = JSON.stringify(paused.state);

    // "Another process": new tool, model and executor; only the JSON crosses over.
    const second = refunds();
    const model = new ScriptedModel([{ text: 'Done.' }]);
    const executor = new Executor({ model, tools: [second.tool], runtime: testRuntime() });
    const resumed = await executor.resume(JSON.parse(saved)).result;

    expect(resumed.output).toBe('Done.');
    expect([first.ledger, second.ledger]).toEqual([[], [40]]);
  });

  it('answers a state read back from JSON with PausedState.from', async () => {
    const { tool, ledger } = refunds();
    const model = new ScriptedModel([refund(40), { text: 'Done.' }]);
    const executor = new Executor({ model, tools: [tool], runtime: testRuntime() });
    const paused = await executor.run('Refund 40').result;

    const state = PausedState.from(overTheWire(paused.state));
    state.approve(state.interruptions[0]!.id);
    await executor.resume(state).result;
    expect(ledger).toEqual([40]);
  });

  it('refuses a second answer to the same interruption with a typed error', async () => {
    const { tool } = refunds();
    const executor = new Executor({
      model: new ScriptedModel([refund(40)]),
      tools: [tool],
      runtime: testRuntime(),
    });
    const paused = await executor.run('Refund 40').result;
    const id = paused.interruptions![0]!.id;
    paused.state!.approve(id);

    expect(() => paused.state!.approve(id)).toThrow(InterruptError);
    expect(() => paused.state!.reject(id, 'no')).toThrow(
      expect.objectContaining({ kind: 'already_answered' }),
    );
    expect(() => paused.state!.approve('int_000000000000')).toThrow(
      expect.objectContaining({ kind: 'invalid_request' }),
    );
  });

  it('refuses to resume the same state object twice, so an approved call never runs twice', async () => {
    const { tool, ledger } = refunds();
    const model = new ScriptedModel([refund(40), { text: 'Done.' }]);
    const executor = new Executor({ model, tools: [tool], runtime: testRuntime() });
    const paused = await executor.run('Refund 40').result;
    const state = paused.state!.approve(paused.interruptions![0]!.id);

    await executor.resume(state).result;
    expect(() => executor.resume(state)).toThrow(expect.objectContaining({ kind: 'already_resumed' }));
    expect(ledger).toEqual([40]);
  });

  it('asks only about the calls its needsApproval predicate picks', async () => {
    const { tool, ledger } = refunds(({ amount }) => amount > 100);
    const model = new ScriptedModel([
      {
        toolCalls: [
          { name: 'refund', args: { amount: 20 } },
          { name: 'refund', args: { amount: 300 } },
        ],
      },
      { text: 'Both refunded.' },
    ]);
    const executor = new Executor({ model, tools: [tool], runtime: testRuntime() });

    const paused = await executor.run('Refund 20 and 300').result;
    expect(paused.interruptions?.map((i) => i.args)).toEqual([{ amount: 300 }]);
    expect(ledger).toEqual([20]);
    paused.state!.approve(paused.interruptions![0]!.id);
    await executor.resume(paused.state!).result;
    expect(ledger).toEqual([20, 300]);
  });

  it('with approve always, lets later calls of the tool in the run through without asking', async () => {
    const { tool, ledger } = refunds();
    const model = new ScriptedModel([refund(10, 'call_1'), refund(20, 'call_2'), { text: 'Done.' }]);
    const executor = new Executor({ model, tools: [tool], runtime: testRuntime() });

    const paused = await executor.run('Refund 10 then 20').result;
    const resumed = await executor.resume(
      overTheWire(paused.state!.approve(paused.interruptions![0]!.id, { always: true })),
    ).result;
    expect(resumed.status).toBe('success');
    expect(ledger).toEqual([10, 20]);

    // The scope belongs to that run: a new run asks again.
    const next = await new Executor({
      model: new ScriptedModel([refund(30)]),
      tools: [tool],
      runtime: testRuntime(),
    }).run('Refund 30').result;
    expect(next.status).toBe('interrupted');
  });

  it('asks live instead when the approvals gate has a bus, with the same interrupt records', async () => {
    const runtime = testRuntime();
    const bus = new MemoryInterruptBus({ clock: runtime.clock });
    const { tool, ledger } = refunds();
    const model = new ScriptedModel([refund(40), { text: 'Done.' }]);
    const approvals = new ApprovalGate({ bus, threshold: 'none', runtime });
    const executor = new Executor({ model, tools: [tool], safety: { approvals }, runtime });

    const run = executor.run('Refund 40');
    run.on('interrupt', (e) => {
      expect(e.interrupt).toMatchObject({ kind: 'approval', toolName: 'refund', toolCallId: 'call_1' });
      void bus.respond(e.interrupt.id, { action: 'approve' });
    });
    const result = await run.result;
    expect(result.status).toBe('success');
    expect(ledger).toEqual([40]);
  });
});

describe('needsApproval: an Orchestrator run that needs approval', () => {
  const simple: ScriptEntry = { text: '{"needsPlan": false, "reasoning": "one call"}' };

  function orchestrator(executor: ScriptEntry[], tools: Tool[]) {
    const planner = new ScriptedModel([simple], { id: 'scripted:planner' });
    const model = new ScriptedModel(executor, { id: 'scripted:executor' });
    const o = new Orchestrator({
      models: { planner, executor: model, verifier: false },
      planning: { classify: 'llm' },
      tools,
      runtime: testRuntime(),
    });
    return { orchestrator: o, model };
  }

  it('returns interrupted with interruptions and a state, and resumes after approve with the tool run once', async () => {
    const { tool, ledger } = refunds();
    const first = orchestrator([refund(40)], [tool]);
    const paused = await first.orchestrator.run('Refund 40').result;

    expect(paused.status).toBe('interrupted');
    expect(paused.interruptions).toEqual([
      expect.objectContaining({
        kind: 'approval',
        toolName: 'refund',
        args: { amount: 40 },
        callId: 'call_1',
      }),
    ]);
    expect(paused.state?.status).toBe('paused');
    expect(ledger).toEqual([]);

    paused.state!.approve(paused.interruptions![0]!.id);
    const second = orchestrator([{ text: 'Refunded 40.' }], [tool]);
    const resumed = await second.orchestrator.resume(overTheWire(paused.state)).result;
    expect(resumed.status).toBe('success');
    expect(resumed.output).toBe('Refunded 40.');
    expect(ledger).toEqual([40]);
    expect(toolResultsSent(second.model, 0)).toEqual({ call_1: 'refunded 40' });
  });

  it('tells the model the rejection message after a resume', async () => {
    const { tool, ledger } = refunds();
    const paused = await orchestrator([refund(900)], [tool]).orchestrator.run('Refund 900').result;
    const state = paused.state!.reject(paused.interruptions![0]!.id, 'Not this customer');

    const second = orchestrator([{ text: 'Not refunded.' }], [tool]);
    const resumed = await second.orchestrator.resume(state).result;
    expect(resumed.output).toBe('Not refunded.');
    expect(ledger).toEqual([]);
    expect(toolResultsSent(second.model, 0).call_1).toContain(
      'User denied execution of refund: Not this customer. The tool was not executed.',
    );
  });

  it('refuses to resume the same state object twice', async () => {
    const { tool, ledger } = refunds();
    const paused = await orchestrator([refund(40)], [tool]).orchestrator.run('Refund 40').result;
    const state = paused.state!.approve(paused.interruptions![0]!.id);
    const second = orchestrator([{ text: 'Done.' }, { text: 'Again.' }], [tool]);

    await second.orchestrator.resume(state).result;
    expect(() => second.orchestrator.resume(state)).toThrow(
      expect.objectContaining({ kind: 'already_resumed' }),
    );
    expect(ledger).toEqual([40]);
  });

  it('pauses a plan step the same way, and the resumed step runs the approved call once', async () => {
    const { tool, ledger } = refunds();
    const plan = JSON.stringify({
      title: 'Refund',
      summary: 'one step',
      steps: [
        { id: 's1', description: 'refund 40', expectedOutput: 'refunded', tools: ['refund'], dependsOn: [] },
      ],
    });
    const planner = new ScriptedModel([
      { text: '{"needsPlan": true, "reasoning": "a plan"}' },
      { text: plan },
    ]);
    const first = new Orchestrator({
      models: {
        planner,
        executor: new ScriptedModel([refund(40)]),
        verifier: false,
        finalizer: ({ steps }) => steps.map((step) => step.output).join(' | '),
      },
      planning: { classify: 'llm' },
      tools: [tool],
      runtime: testRuntime(),
    });
    const paused = await first.run('Refund 40 as a plan').result;
    expect(paused).toMatchObject({ status: 'interrupted', complexity: 'complex' });
    expect(paused.interruptions?.map((i) => [i.toolName, i.callId, i.stepId])).toEqual([
      ['refund', 'call_1', 's1'],
    ]);

    const secondPlanner = new ScriptedModel([]);
    const second = new Orchestrator({
      models: {
        planner: secondPlanner,
        executor: new ScriptedModel([{ text: 'refunded 40' }]),
        verifier: false,
        finalizer: ({ steps }) => steps.map((step) => step.output).join(' | '),
      },
      planning: { classify: 'llm' },
      tools: [tool],
      runtime: testRuntime(),
    });
    const resumed = await second.resume(overTheWire(paused.state!.approve(paused.interruptions![0]!.id)))
      .result;
    expect(resumed).toMatchObject({ status: 'success', output: 'refunded 40' });
    expect(ledger).toEqual([40]);
    expect(secondPlanner.calls).toBe(0);
  });

  it('scans tool calls with the default guardrails before any approval', async () => {
    const ran: string[] = [];
    const shell = defineTool({
      name: 'run_shell',
      description: 'Run a command',
      parameters: z.object({ command: z.string() }),
      needsApproval: true,
      execute: ({ command }) => {
        ran.push(command);
        return 'ran';
      },
    });
    const wipe: ScriptEntry = {
      toolCalls: [{ id: 'call_1', name: 'run_shell', args: { command: 'rm -rf /' } }],
    };
    const { orchestrator: o, model } = orchestrator([wipe, { text: 'Refused.' }], [shell]);
    const result = await o.run('Clean the disk').result;

    expect(result).toMatchObject({ status: 'success', output: 'Refused.' });
    expect(ran).toEqual([]);
    expect(toolResultsSent(model, 1).call_1).toMatch(/^Tool blocked: /);
  });

  it('keeps the decisions in the JSON of the state, where a resume in a new process reads them', async () => {
    const { tool } = refunds();
    const paused = await orchestrator([refund(40)], [tool]).orchestrator.run('Refund 40').result;
    const id = paused.interruptions![0]!.id;
    const json = overTheWire(paused.state!.approve(id)) as RunState;
    expect(json.decisions).toEqual({ [id]: { action: 'approve' } });
    expect(json.conversations.main?.messages.at(-1)).toMatchObject({
      role: 'assistant',
    } satisfies Partial<Message>);
  });
});
