import { execFile } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Orchestrator, type OrchestratorOptions } from '../../src/agents/index.js';
import type { TandemEvent } from '../../src/core/events.js';
import type { Message } from '../../src/core/messages.js';
import { FileCheckpointStore } from '../../src/fs/index.js';
import { ApprovalGate } from '../../src/safety/approvals/approval-gate.js';
import { MemoryInterruptBus } from '../../src/safety/approvals/interrupt-bus.js';
import type { InterruptResponse } from '../../src/safety/approvals/interrupts.js';
import { type CheckpointStore, MemoryCheckpointStore } from '../../src/state/checkpoint-store.js';
import type { RunState } from '../../src/state/run-state.js';
import { type ScriptEntry, ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { defineTool, type Tool } from '../../src/tools/types.js';
import { expectInvariants } from '../support/invariants.js';
import { auditAndRefund } from './fixtures/ledger-tool.js';
import { decideComplex, planJson } from './helpers.js';

const simple = { text: '{"needsPlan": false, "reasoning": "one batch"}' };
const entry = (name: string, value: string) => ({ name, args: { entry: value } });
const batch = (...calls: ReturnType<typeof entry>[]): ScriptEntry => ({ toolCalls: calls });

/** One "process": a pausing orchestrator with its own approval gate, over a shared store and ledger. */
function pausing(
  scripts: { planner?: ScriptEntry[]; executor: ScriptEntry[] },
  shared: { store: CheckpointStore<RunState>; tools: Tool[] },
  options: Omit<Partial<OrchestratorOptions>, 'models'> & {
    models?: Partial<OrchestratorOptions['models']>;
  } = {},
) {
  const planner = new ScriptedModel(scripts.planner ?? [], { id: 'scripted:planner' });
  const executor = new ScriptedModel(scripts.executor, { id: 'scripted:executor' });
  const orchestrator = new Orchestrator({
    tools: shared.tools,
    runtime: testRuntime(),
    ...options,
    models: {
      planner,
      executor,
      verifier: false,
      finalizer: ({ steps }) => steps.map((s) => s.output).join(' | '),
      ...options?.models,
    },
    planning: { classify: 'llm', ...options?.planning },
    checkpoints: { store: shared.store, ...options?.checkpoints },
    safety: {
      approvals: new ApprovalGate({ bus: new MemoryInterruptBus() }),
      pauseOnInterrupt: true,
      ...options?.safety,
    },
  });
  return { orchestrator, planner, executor };
}

function world() {
  const ledger: string[] = [];
  return {
    ledger,
    store: new MemoryCheckpointStore<RunState>(),
    tools: auditAndRefund((l) => ledger.push(l)),
  };
}

/** Starts `run`, collecting its events; resolves with them and the saved state once it settles. */
async function settle(
  run: ReturnType<Orchestrator['run']>,
  store: CheckpointStore<RunState>,
): Promise<{ events: TandemEvent[]; error?: any; state: RunState }> {
  const events: TandemEvent[] = [];
  run.on('*', (e) => events.push(e));
  // A pause resolves `interrupted`, with the pause as its error.
  const error = await run.result.then(
    (r) => r.error,
    (e: unknown) => e,
  );
  expectInvariants(events);
  return { events, error, state: (await store.load(run.runId))! };
}

/** Answers for the state's questions, by the call each one asks about. */
function answers(
  state: RunState,
  byCall: Record<string, InterruptResponse>,
): Record<string, InterruptResponse> {
  const out: Record<string, InterruptResponse> = {};
  for (const i of state.interrupts)
    if (i.toolCallId && byCall[i.toolCallId]) out[i.id] = byCall[i.toolCallId]!;
  return out;
}

const lastMessage = (state: RunState, key = 'main'): Message | undefined =>
  state.conversations[key]?.messages.at(-1);
const resultsOf = (message: Message | undefined) =>
  message?.role === 'tool' ? message.content.map((p) => [p.toolCallId, p.content]) : undefined;

describe('pauseOnInterrupt with a batch of tool calls', () => {
  it('keeps the result of a safe call of the paused batch and never runs it again', async () => {
    const w = world();
    const first = pausing(
      { planner: [simple], executor: [batch(entry('audit', 'a'), entry('refund', 'r'))] },
      w,
    );
    const paused = await settle(first.orchestrator.run('Audit, then refund'), w.store);
    expect(paused.error).toMatchObject({ kind: 'interrupted' });
    expect(paused.state.status).toBe('paused');
    expect(paused.state.interrupts.map((i) => [i.toolName, i.toolCallId])).toEqual([['refund', 'call_2']]);
    expect(resultsOf(lastMessage(paused.state))).toEqual([['call_1', 'audit done: a']]);
    expect(w.ledger).toEqual(['audit a']);

    const second = pausing({ executor: [{ text: 'refunded' }] }, w);
    const responses = answers(paused.state, { call_2: { action: 'approve' } });
    const resumed = await settle(second.orchestrator.resume(paused.state, { responses }), w.store);
    expect(resumed.error).toBeUndefined();
    expect(w.ledger).toEqual(['audit a', 'refund r']);
    expect(resultsOf(second.executor.requests[0]!.messages.at(-1))).toEqual([
      ['call_1', 'audit done: a'],
      ['call_2', 'refund done: r'],
    ]);
    expect(resumed.state.status).toBe('completed');
  });

  it('lists every approval of the batch, and one resume answering them all completes the run', async () => {
    const w = world();
    const first = pausing(
      { planner: [simple], executor: [batch(entry('refund', 'r1'), entry('refund', 'r2'))] },
      w,
    );
    const paused = await settle(first.orchestrator.run('Refund twice'), w.store);
    expect(paused.error).toMatchObject({ kind: 'interrupted' });
    expect(paused.state.interrupts.map((i) => i.toolCallId)).toEqual(['call_1', 'call_2']);
    expect(paused.events.filter((e) => e.type === 'tool_result').map((e) => e.output)).toEqual([
      'Awaiting approval of refund: the run is paused until it is answered. The tool has not been executed.',
      'Awaiting approval of refund: the run is paused until it is answered. The tool has not been executed.',
    ]);
    expect(lastMessage(paused.state)).toMatchObject({ role: 'assistant' });
    expect(w.ledger).toEqual([]);

    const second = pausing({ executor: [{ text: 'both refunded' }] }, w);
    const responses = answers(paused.state, { call_1: { action: 'approve' }, call_2: { action: 'approve' } });
    const resumed = await settle(second.orchestrator.resume(paused.state, { responses }), w.store);
    expect(resumed.error).toBeUndefined();
    expect(resumed.events.some((e) => e.type === 'interrupt')).toBe(false);
    expect(w.ledger).toEqual(['refund r1', 'refund r2']);
    expect(resumed.state).toMatchObject({ status: 'completed', output: 'both refunded', interrupts: [] });
  });

  it('pauses again on the questions a resume left unanswered, never re-asking or re-running an answered one', async () => {
    const w = world();
    const first = pausing(
      { planner: [simple], executor: [batch(entry('refund', 'r1'), entry('refund', 'r2'))] },
      w,
    );
    const paused = await settle(first.orchestrator.run('Refund twice'), w.store);

    const second = pausing({ executor: [] }, w);
    const onlyR1 = answers(paused.state, { call_1: { action: 'approve' } });
    const again = await settle(second.orchestrator.resume(paused.state, { responses: onlyR1 }), w.store);
    expect(again.error).toMatchObject({ kind: 'interrupted' });
    expect(again.state.status).toBe('paused');
    expect(again.events.filter((e) => e.type === 'interrupt').map((e) => e.interrupt.toolCallId)).toEqual([
      'call_2',
    ]);
    expect(again.state.interrupts.map((i) => i.toolCallId)).toEqual(['call_2']);
    expect(resultsOf(lastMessage(again.state))).toEqual([['call_1', 'refund done: r1']]);
    expect(w.ledger).toEqual(['refund r1']);
    expect(second.executor.calls).toBe(0);

    const third = pausing({ executor: [{ text: 'r1 refunded, r2 refused' }] }, w);
    const denyR2 = answers(again.state, { call_2: { action: 'deny' } });
    const done = await settle(third.orchestrator.resume(again.state, { responses: denyR2 }), w.store);
    expect(done.error).toBeUndefined();
    expect(w.ledger).toEqual(['refund r1']);
    expect(resultsOf(third.executor.requests[0]!.messages.at(-1))).toEqual([
      ['call_1', 'refund done: r1'],
      ['call_2', expect.stringMatching(/^User denied execution of refund\. The tool was not executed\.\n\n/)],
    ]);
    expect(done.state.status).toBe('completed');
  });

  it('treats a pause inside a plan step as a pause, not a failure the escalation ladder retries', async () => {
    const w = world();
    const first = pausing(
      {
        planner: [decideComplex, { text: planJson([{ id: 's1' }]) }],
        executor: [batch(entry('audit', 'a'), entry('refund', 'r'))],
      },
      w,
    );
    const paused = await settle(first.orchestrator.run('One step'), w.store);
    expect(paused.error).toMatchObject({ kind: 'interrupted' });
    expect(paused.events.some((e) => e.type === 'plan_step_failed')).toBe(false);
    expect(first.planner.calls).toBe(2);
    expect(paused.state.steps.map((s) => s.status)).toEqual(['running']);
    expect(resultsOf(lastMessage(paused.state, 's1'))).toEqual([['call_1', 'audit done: a']]);

    const second = pausing({ executor: [{ text: 's1 done' }] }, w);
    const responses = answers(paused.state, { call_2: { action: 'approve' } });
    const resumed = await settle(second.orchestrator.resume(paused.state, { responses }), w.store);
    expect(resumed.error).toBeUndefined();
    expect(w.ledger).toEqual(['audit a', 'refund r']);
    expect(resumed.state).toMatchObject({ status: 'completed', output: 's1 done' });
    expect(second.planner.calls).toBe(0);
  });

  it('keeps the results of the calls of a batch that finished before a crash, and runs only the others on resume', async () => {
    const w = world();
    const controller = new AbortController();
    const crashing = defineTool({
      name: 'stall',
      description: 'Hangs: the process dies while it runs',
      parameters: z.object({ entry: z.string() }),
      execute: () => {
        controller.abort(new Error('process crashed'));
        return new Promise<string>(() => {});
      },
    });
    const script = [batch(entry('audit', 'a'), entry('stall', 'x'), entry('audit', 'b'))];
    const first = pausing({ planner: [simple], executor: script }, { ...w, tools: [...w.tools, crashing] });
    const crashed = await settle(
      first.orchestrator.run('Three calls', { signal: controller.signal }),
      w.store,
    );
    expect(crashed.error).toMatchObject({ kind: 'aborted' });
    expect(crashed.state.status).toBe('running');
    expect(resultsOf(lastMessage(crashed.state))).toEqual([['call_1', 'audit done: a']]);
    expect(w.ledger).toEqual(['audit a']);

    const finishing = defineTool({
      ...crashing,
      execute: ({ entry }) => {
        w.ledger.push(`stall ${entry}`);
        return 'ok';
      },
    });
    const second = pausing({ executor: [{ text: 'all done' }] }, { ...w, tools: [...w.tools, finishing] });
    const resumed = await settle(second.orchestrator.resume(crashed.state), w.store);
    expect(resumed.error).toBeUndefined();
    expect(w.ledger).toEqual(['audit a', 'stall x', 'audit b']);
    expect(resultsOf(second.executor.requests[0]!.messages.at(-1))).toEqual([
      ['call_1', 'audit done: a'],
      ['call_2', 'ok'],
      ['call_3', 'audit done: b'],
    ]);
  });
});

describe('pause, kill -9, resume in another process', () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function runChild(args: string[]): Promise<NodeJS.Signals | null> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', 'test/orchestrator/fixtures/pause-run.ts', ...args],
        { cwd: root },
        (error) => resolve((error as { signal?: NodeJS.Signals } | null)?.signal ?? null),
      );
    });
  }

  it('resumes a batch paused by a process that was then SIGKILLed: every call runs exactly once', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tandem-pause-'));
    const ledgerFile = join(dir, 'ledger.txt');
    const store = new FileCheckpointStore<RunState>({ dir: join(dir, 'checkpoints') });
    expect(await runChild([join(dir, 'checkpoints'), ledgerFile])).toBe('SIGKILL');
    expect(readFileSync(ledgerFile, 'utf8')).toBe('audit a\n');
    const saved = (await store.load('run_pause'))!;
    expect(saved.status).toBe('paused');
    expect(saved.interrupts.map((i) => i.toolCallId)).toEqual(['call_2', 'call_3']);

    const tools = auditAndRefund((line) => appendFileSync(ledgerFile, `${line}\n`));
    const resumedBy = pausing({ executor: [{ text: 'audited and refunded' }] }, { store, tools });
    const responses = answers(saved, { call_2: { action: 'approve' }, call_3: { action: 'approve' } });
    const resumed = await settle(resumedBy.orchestrator.resume(saved, { responses }), store);
    expect(resumed.error).toBeUndefined();
    expect(readFileSync(ledgerFile, 'utf8')).toBe('audit a\nrefund r1\nrefund r2\n');
    expect(resumed.state).toMatchObject({ status: 'completed', output: 'audited and refunded' });
  });
});
