/**
 * One orchestration run, from the task to the final answer: the input
 * guardrail; an explicit mode or the router's agent (`agent-modes.ts`);
 * otherwise plan or not (`classify.ts`), then one Executor run or the
 * planned path (`planned-run.ts`); with an output schema, the answer's object
 * (`structured-result.ts`); the output guardrail. The state is recorded as it
 * goes, so the run can be resumed.
 * @module
 */
import { RunError } from '../../core/errors.js';
import type { EventBus } from '../../core/event-bus.js';
import type { HeldReasoning } from '../../core/held-text.js';
import type { Schema } from '../../model/schema.js';
import type { Guardrails } from '../../safety/guardrails/guardrails.js';
import { executeOn } from '../executor/index.js';
import { isMode, pausedAgent, routeToAgent, runAgent, runExplicitMode } from './agent-modes.js';
import { classifyPhase } from './classify.js';
import type { OrchestrationParts, RunContext } from './collaborators.js';
import type { PhaseResult } from './phase-result.js';
import { PlannedRun } from './planned-run.js';
import type { RunRecorder } from './run-recorder.js';
import { type RunRequest, requestOf } from './run-request.js';
import type { RunScope } from './run-scope.js';
import { stage } from './stage-events.js';
import { guardedObject, withRunObject } from './structured-result.js';

/** Runs (or resumes) one orchestration on its scope's `bus`, recording into its `recorder`. */
export class Orchestration {
  private readonly bus: EventBus;
  private readonly recorder: RunRecorder;
  private readonly signal: AbortSignal;
  /** The run's scope with the parts: what the agent modes and the answer's object work with. */
  private readonly context: RunContext;
  private output: Schema | undefined;

  constructor(
    private readonly parts: OrchestrationParts,
    private readonly scope: RunScope,
  ) {
    this.bus = scope.bus;
    this.recorder = scope.recorder;
    this.signal = scope.signal;
    this.context = { scope, parts };
  }

  /** From the start, or from wherever the recorded state stopped; with `output`, the answer is an object of it. */
  async run(mode?: string, output?: Schema): Promise<PhaseResult> {
    this.output = output;
    const { parts, scope } = this;
    const { options } = parts;
    const state = this.recorder.state;
    const request = requestOf(state);
    const run = { ...this.context, request };
    const task = request.text;
    // Streamed text reaches listeners only as the output guardrails leave it (see finish).
    if (options.guardrails?.checksOutput) this.bus.holdTokens();
    if (options.guardrails && state.phase === 'classifying') {
      const verdict = await options.guardrails.checkInput(task, { emit: this.bus, signal: this.signal });
      if (verdict.blocked)
        throw new RunError('guardrail', `Input blocked: ${verdict.reason ?? 'policy violation'}`);
    }
    // A run paused in a handoff agent continues in it, however the agent was chosen.
    const paused = pausedAgent(scope);
    if (paused) return this.finish(await runAgent(run, paused));
    const unknownMode = mode && !isMode(options, mode) ? mode : undefined;
    if (mode && !unknownMode) return this.finish(await runExplicitMode(run, mode));
    if (!state.complexity) {
      const routed = await routeToAgent(run, unknownMode);
      if (routed) return this.finish(routed);
      await classifyPhase(scope, request, { mode: options.classify ?? 'auto', planner: parts.planner });
    }
    if (this.recorder.state.complexity === 'simple') return this.simple(request);
    return this.finish(await new PlannedRun(parts, scope).run());
  }

  /** A simple task: one Executor run continuing the conversation, checkpointed as `main`. */
  private async simple(request: RunRequest): Promise<PhaseResult> {
    const saved = this.recorder.state.conversations.main;
    const result = await stage(this.bus, 'executing', () =>
      executeOn(this.parts.executor, saved ? [] : request.content, {
        signal: this.signal,
        budget: this.scope.budget,
        history: saved ? saved.messages : request.history,
        emit: this.bus.scope({ agent: 'executor' }),
        onCheckpoint: (messages) => this.recorder.conversation('main', { mode: 'direct' }, messages),
        output: this.output,
      }),
    );
    // A pause keeps the conversation for the resume; the run records itself paused (pause.ts).
    if (result.status === 'interrupted') {
      throw result.error ?? new RunError('interrupted', 'The run waits for a human answer');
    }
    // The run records the failure and resolves `failed` with it (orchestrator.ts).
    if (result.status === 'failed') throw result.error ?? new RunError('internal', 'The execution failed');
    this.recorder.endConversation('main');
    const done: PhaseResult = {
      output: result.output,
      status: result.status,
      complexity: 'simple',
      steps: [],
      revisions: 0,
    };
    if (result.object !== undefined) done.object = result.object;
    if (result.error) done.error = result.error;
    return this.finish(done);
  }

  /**
   * Makes the answer's object (with an output schema), scans the answer (the
   * transcript keeps what the scan returns), records it, and returns the result.
   */
  private async finish(result: PhaseResult): Promise<PhaseResult> {
    const { output } = this;
    let done = output ? await withRunObject(this.context, result, output) : result;
    const guardrails = this.parts.options.guardrails;
    if (guardrails) {
      const verdict = await guardrails.checkOutput(done.output, { emit: this.bus, signal: this.signal });
      if (output && verdict.text !== done.output) done = await guardedObject(done, output, verdict.text);
      else done.output = verdict.text;
      this.bus.releaseTokens({
        text: done.output,
        tags: { agent: done.agent ?? answerAgent(done) },
        reasoning: await checkedReasoning(guardrails, this.bus, this.signal),
        object: done.object,
      });
    }
    await this.recorder.phase('done', { status: 'completed', output: done.output });
    return done;
  }
}

/** The agent whose text a run's answer is: the finalizer's for a plan, else the executor's. */
function answerAgent(result: PhaseResult): string {
  return result.complexity === 'complex' ? 'finalizer' : 'executor';
}

/**
 * The reasoning the bus held, as the output guardrails leave it: thoughts
 * quote what the answer would, so they pass the same check (its findings
 * are the answer's business: no events of their own).
 */
async function checkedReasoning(
  guardrails: Guardrails,
  bus: EventBus,
  signal: AbortSignal,
): Promise<HeldReasoning[]> {
  const held = bus.heldReasoning();
  return Promise.all(
    held.map(async ({ text, tags }) => {
      const { text: checked } = await guardrails.checkOutput(text, { signal });
      return tags ? { text: checked, tags } : { text: checked };
    }),
  );
}
