import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { TandemEvent } from '../../src/core/events.js';
import {
  ApprovalGate,
  type ApprovalThreshold,
  approvalScope,
} from '../../src/safety/approvals/approval-gate.js';
import { MemoryInterruptBus } from '../../src/safety/approvals/interrupt-bus.js';
import type { InterruptResponse } from '../../src/safety/approvals/interrupts.js';
import { Guardrails } from '../../src/safety/guardrails/guardrails.js';
import { FakeClock, seededRandom, sequentialIds } from '../../src/testing/fake-clock.js';
import { prepareToolCalls } from '../../src/tools/prepare.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { ToolRunner } from '../../src/tools/runner.js';
import { defineTool, type Tool, type ToolRisk } from '../../src/tools/types.js';
import { collectingBus, toolCall } from '../tools/helpers.js';

function tool(name: string, risk: ToolRisk, ran: string[]): Tool {
  return defineTool({
    name,
    description: name,
    risk,
    parameters: z.object({ command: z.string().optional(), skill_id: z.string().optional() }),
    execute: (args) => {
      ran.push(`${name}${args.skill_id ? `:${args.skill_id}` : ''}`);
      return `${name} done`;
    },
  });
}

function setup(
  options: {
    threshold?: ApprovalThreshold;
    answer?: (e: TandemEvent<'interrupt'>) => InterruptResponse | undefined;
    guardrails?: boolean;
  } = {},
) {
  const { bus, events, clock } = collectingBus(new FakeClock());
  const interrupts = new MemoryInterruptBus({ clock });
  const ran: string[] = [];
  const tools = [
    tool('read_file', 'safe', ran),
    tool('write_file', 'moderate', ran),
    tool('run_shell', 'risky', ran),
    tool('deploy', 'risky', ran),
    tool('invoke_skill', 'risky', ran),
  ];
  const approvals = new ApprovalGate({
    bus: interrupts,
    threshold: options.threshold,
    guardrails: options.guardrails ? new Guardrails({ clock }) : undefined,
    runtime: { clock, random: seededRandom(1), ids: sequentialIds() },
  });
  bus.on('interrupt', (e) => {
    const answer = options.answer?.(e);
    if (answer) void interrupts.respond(e.interrupt.id, answer);
  });
  const registry = new ToolRegistry(tools);
  const runner = new ToolRunner({ clock });
  const run = async (...calls: Parameters<typeof toolCall>[]) =>
    runner.run(
      (
        await prepareToolCalls(
          registry,
          calls.map((c) => toolCall(...c)),
        )
      ).calls,
      {
        signal: new AbortController().signal,
        emit: bus,
        runId: 'run_1',
        gate: approvals.gate,
      },
    );
  const of = <T extends TandemEvent['type']>(type: T) =>
    events.filter((e) => e.type === type) as unknown as TandemEvent<T>[];
  return { approvals, interrupts, clock, ran, run, events, of };
}

describe('ApprovalGate thresholds', () => {
  it.each([
    ['all', ['read_file', 'write_file', 'run_shell']],
    ['moderate', ['write_file', 'run_shell']],
    ['risky', ['run_shell']],
    ['none', []],
  ] as const)('threshold %s asks for %j', async (threshold, asked) => {
    const { run, of } = setup({ threshold, answer: () => ({ action: 'approve' }) });
    await run(['read_file', {}, 'a'], ['write_file', {}, 'b'], ['run_shell', { command: 'ls' }, 'c']);
    expect(of('interrupt').map((e) => e.interrupt.toolName)).toEqual(asked);
  });

  it('defaults to risky', async () => {
    const { run, of } = setup({ answer: () => ({ action: 'approve' }) });
    await run(['write_file', {}, 'b'], ['deploy', {}, 'c']);
    expect(of('interrupt').map((e) => e.interrupt.toolName)).toEqual(['deploy']);
  });
});

describe('ApprovalGate lifecycle', () => {
  it('runs an approved call and emits interrupt then interrupt_response', async () => {
    const { run, ran, of, events } = setup({ answer: () => ({ action: 'approve' }) });
    const [outcome] = await run(['deploy', {}, 'c1']);
    expect(outcome).toMatchObject({ toolCallId: 'c1', isError: false, output: 'deploy done' });
    expect(ran).toEqual(['deploy']);
    const [interrupt] = of('interrupt');
    expect(interrupt?.interrupt).toMatchObject({
      kind: 'approval',
      toolName: 'deploy',
      toolCallId: 'c1',
      timeoutMs: 120_000,
      defaultAction: 'deny',
    });
    expect(interrupt?.interrupt.id).toMatch(/^int_[0-9a-f]{12}$/);
    expect(of('interrupt_response')).toEqual([
      expect.objectContaining({ interruptId: interrupt?.interrupt.id, action: 'approve', timedOut: false }),
    ]);
    expect(events.map((e) => e.type)).toEqual([
      'tool_call',
      'interrupt',
      'interrupt_response',
      'tool_result',
    ]);
  });

  it('answers a denied call with the denial and does not run it', async () => {
    const { run, ran } = setup({ answer: () => ({ action: 'deny' }) });
    const [outcome] = await run(['deploy', {}, 'c1']);
    expect(outcome).toMatchObject({
      isError: true,
      output: 'User denied execution of deploy. The tool was not executed.',
    });
    expect(ran).toEqual([]);
  });

  it('applies the default deny after 120 s, not 300 s, and reports the timeout (B15)', async () => {
    const { run, ran, clock, of } = setup();
    const done = run(['deploy', {}, 'c1']);
    await clock.advance(119_999);
    expect(of('interrupt_response')).toEqual([]);
    await clock.advance(1);
    const [outcome] = await done;
    expect(outcome?.output).toBe(
      'No answer to the approval request for deploy within 120 s; the default "deny" was applied. The tool was not executed.',
    );
    expect(of('interrupt_response')).toEqual([expect.objectContaining({ action: 'deny', timedOut: true })]);
    expect(ran).toEqual([]);
  });

  it('gives every call id of a batch a result on deny and timeout', async () => {
    let answers = 0;
    const { run, clock, events } = setup({
      answer: () => (answers++ === 0 ? { action: 'deny' } : undefined),
    });
    const done = run(['deploy', {}, 'a'], ['run_shell', { command: 'ls' }, 'b'], ['read_file', {}, 'c']);
    await clock.advance(120_000);
    const outcomes = await done;
    expect(outcomes.map((o) => [o.toolCallId, o.isError])).toEqual([
      ['a', true],
      ['b', true],
      ['c', false],
    ]);
    const results = events
      .filter((e) => e.type === 'tool_result')
      .map((e) => (e as TandemEvent<'tool_result'>).id);
    expect(results).toEqual(['a', 'b', 'c']);
  });

  it('approves on timeout when the default action is approve', async () => {
    const { clock } = setup();
    const interrupts = new MemoryInterruptBus({ clock });
    const approvals = new ApprovalGate({
      bus: interrupts,
      defaultAction: 'approve',
      timeoutMs: 10,
      runtime: { clock },
    });
    const ran: string[] = [];
    const registry = new ToolRegistry([tool('deploy', 'risky', ran)]);
    const { bus } = collectingBus(clock);
    const done = new ToolRunner({ clock }).run(
      (await prepareToolCalls(registry, [toolCall('deploy', {}, 'x')])).calls,
      {
        signal: new AbortController().signal,
        emit: bus,
        runId: 'r',
        gate: approvals.gate,
      },
    );
    await clock.advance(10);
    expect((await done)[0]).toMatchObject({ isError: false });
    expect(ran).toEqual(['deploy']);
  });

  it('cancels the wait when the run aborts and answers the call', async () => {
    const { clock } = setup();
    const interrupts = new MemoryInterruptBus({ clock });
    const approvals = new ApprovalGate({ bus: interrupts, runtime: { clock } });
    const registry = new ToolRegistry([tool('deploy', 'risky', [])]);
    const { bus, events } = collectingBus(clock);
    const controller = new AbortController();
    const done = new ToolRunner({ clock }).run(
      (await prepareToolCalls(registry, [toolCall('deploy', {}, 'x')])).calls,
      {
        signal: controller.signal,
        emit: bus,
        runId: 'r',
        gate: approvals.gate,
      },
    );
    await clock.advance(5);
    controller.abort();
    expect((await done)[0]).toMatchObject({ isError: true, output: expect.stringContaining('cancelled') });
    expect(events.find((e) => e.type === 'interrupt_response')).toMatchObject({
      action: 'cancelled',
      timedOut: false,
    });
    expect(await interrupts.pending('r')).toEqual([]);
  });
});

describe('ApprovalGate approve-always scope', () => {
  it('approves the exact tool for the session, not other risky tools', async () => {
    let first = true;
    const { run, of, approvals } = setup({
      answer: () => {
        const answer = first ? { action: 'approve_always' } : { action: 'deny' };
        first = false;
        return answer;
      },
    });
    await run(['deploy', {}, 'a']);
    await run(['deploy', {}, 'b']);
    const [other] = await run(['run_shell', { command: 'ls' }, 'c']);
    expect(of('interrupt').map((e) => e.interrupt.toolName)).toEqual(['deploy', 'run_shell']);
    expect(other?.output).toContain('User denied execution of run_shell');
    expect(approvals.approvedScopes()).toEqual(['deploy']);
  });

  it('scopes skills by skill id, so approving one skill never approves another (B15)', async () => {
    let first = true;
    const { run, of, ran, approvals } = setup({
      answer: () => {
        const answer = first ? { action: 'approve_always' } : { action: 'deny' };
        first = false;
        return answer;
      },
    });
    await run(['invoke_skill', { skill_id: 'web_research' }, 'a']);
    await run(['invoke_skill', { skill_id: 'web_research' }, 'b']);
    await run(['invoke_skill', { skill_id: 'delete_repo' }, 'c']);
    expect(of('interrupt').map((e) => (e.interrupt.args as { skill_id: string }).skill_id)).toEqual([
      'web_research',
      'delete_repo',
    ]);
    expect(ran).toEqual(['invoke_skill:web_research', 'invoke_skill:web_research']);
    expect(approvals.approvedScopes()).toEqual(['invoke_skill:web_research']);
  });

  it('restores granted scopes and computes scopes', () => {
    expect(approvalScope('deploy', {})).toBe('deploy');
    expect(approvalScope('invoke_skill', { skillId: 'x' })).toBe('invoke_skill:x');
    expect(approvalScope('invoke_skill', {})).toBeUndefined();
    const gate = new ApprovalGate({ bus: new MemoryInterruptBus(), approvedScopes: ['deploy'] });
    expect(gate.approvedScopes()).toEqual(['deploy']);
  });

  it('approve-always answers the pending requests of the same scope in the run', async () => {
    const { clock } = setup();
    const interrupts = new MemoryInterruptBus({ clock });
    const approvals = new ApprovalGate({ bus: interrupts, runtime: { clock, random: seededRandom(3) } });
    const ran: string[] = [];
    const parallelDeploy = defineTool({
      name: 'deploy',
      description: 'deploy',
      risk: 'risky',
      parallelSafe: true,
      parameters: z.object({ target: z.string() }),
      execute: ({ target }) => {
        ran.push(target);
        return 'ok';
      },
    });
    const { bus } = collectingBus(clock);
    const seen: string[] = [];
    bus.on('interrupt', (e) => {
      seen.push(e.interrupt.id);
      if (seen.length === 2) void interrupts.respond(seen[0]!, { action: 'approve_always' });
    });
    const outcomes = await new ToolRunner({ clock }).run(
      (
        await prepareToolCalls(new ToolRegistry([parallelDeploy]), [
          toolCall('deploy', { target: 'a' }, 'a'),
          toolCall('deploy', { target: 'b' }, 'b'),
        ])
      ).calls,
      { signal: new AbortController().signal, emit: bus, runId: 'r', gate: approvals.gate },
    );
    expect(outcomes.map((o) => o.isError)).toEqual([false, false]);
    expect(ran.sort()).toEqual(['a', 'b']);
  });
});

describe('ApprovalGate with guardrails', () => {
  it('scans before asking: a blocked call is never offered for approval (B15)', async () => {
    const { run, of, ran } = setup({ guardrails: true, answer: () => ({ action: 'approve' }) });
    const [outcome] = await run(['run_shell', { command: 'rm -rf /' }, 'a']);
    expect(outcome?.output).toBe('Tool blocked: Command recursively deletes "/" (argument "command")');
    expect(of('interrupt')).toEqual([]);
    expect(ran).toEqual([]);
  });

  it('scans calls already approved always', async () => {
    const { run, ran } = setup({ guardrails: true, answer: () => ({ action: 'approve_always' }) });
    await run(['run_shell', { command: 'ls' }, 'a']);
    const [second] = await run(['run_shell', { command: 'rm -fr /' }, 'b']);
    expect(second?.output).toMatch(/^Tool blocked: /);
    expect(ran).toEqual(['run_shell']);
  });
});
