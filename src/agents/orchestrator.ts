/**
 * The Orchestrator: classify → (simple) one Executor run, or (complex) plan →
 * dispatch steps → verify → re-plan (bounded) → finalize, emitting typed
 * events throughout; runs can be saved and resumed (`run.state()`,
 * `orchestrator.resume(state, responses)`).
 * @module
 */
import { ConfigError, RunError } from '../core/errors.js';
import { EventBus } from '../core/event-bus.js';
import { type Runtime, resolveRuntime } from '../core/seams.js';
import { emptyUsage, type Usage } from '../core/usage.js';
import { directInvoker } from '../model/invoke.js';
import { parseRunState, type RunState } from '../state/run-state.js';
import { ToolRegistry } from '../tools/registry.js';
import { Executor } from './executor.js';
import { Orchestration } from './orchestration.js';
import type { OrchestrationParts } from './orchestration-parts.js';
import type {
  OrchestratorOptions,
  OrchestratorResult,
  OrchestratorRunOptions,
  ResumeOptions,
} from './orchestrator-options.js';
import { Planner } from './planner.js';
import { Run, type RunInit } from './run.js';
import { RunRecorder } from './run-recorder.js';
import { runStepJob } from './step-job.js';
import type { StepJob, StepJobContext, StepJobResult } from './step-job-types.js';

export * from './orchestrator-options.js';

/** A running orchestration: a {@link Run} whose state can be saved. */
export class OrchestratorRun extends Run<OrchestratorResult> {
  constructor(
    init: RunInit<OrchestratorResult>,
    private readonly recorder: RunRecorder,
  ) {
    super(init);
  }

  /** The run's state as of now: versioned JSON for `orchestrator.resume`. */
  state(): RunState {
    return this.recorder.snapshot();
  }
}

/** Drives whole runs. See the module docs for the lifecycle. */
export class Orchestrator {
  private readonly options: OrchestratorOptions;
  private readonly runtime: Runtime;
  private readonly parts: OrchestrationParts;
  /** Pausing with the `approvals` gate: its questions are deferred, so a tool batch finishes before the pause. */
  private readonly defersApprovals: boolean;

  /** @throws ConfigError for an unknown `onCheckpointError` or invalid `plannerOptions`. */
  constructor(options: OrchestratorOptions) {
    const policy = options.onCheckpointError;
    if (policy !== undefined && policy !== 'warn' && policy !== 'fail') {
      throw new ConfigError(`onCheckpointError must be 'warn' or 'fail', got ${JSON.stringify(policy)}`);
    }
    this.options = options;
    this.runtime = resolveRuntime(options.runtime);
    const invoke = options.invoker ?? directInvoker;
    const tools =
      options.tools instanceof ToolRegistry ? options.tools : new ToolRegistry(options.tools ?? []);
    const gate = options.gate ?? options.approvals?.gate;
    this.defersApprovals = options.pauseOnInterrupt === true && !!gate && gate === options.approvals?.gate;
    const common = {
      ...options.executorOptions,
      tools,
      runtime: this.runtime,
      sandbox: options.sandbox,
      gate,
      deferApprovals: this.defersApprovals || options.executorOptions?.deferApprovals,
      // Guardrails given to the orchestrator also screen untrusted tool output.
      outputFilter: options.executorOptions?.outputFilter ?? options.guardrails?.outputFilter(),
    };
    const verifier = options.verifier === undefined ? options.executor : options.verifier;
    const finalizer = options.finalizer ?? options.executor;
    this.parts = {
      options,
      runtime: this.runtime,
      tools,
      planner: new Planner({
        ...options.plannerOptions,
        model: options.planner,
        invoker: invoke(options.planner),
        runtime: this.runtime,
      }),
      executor: new Executor({
        name: 'executor',
        ...common,
        model: options.executor,
        invoker: invoke(options.executor),
        instructions: options.instructions,
      }),
      takeover: new Executor({
        name: 'planner',
        ...common,
        model: options.planner,
        invoker: invoke(options.planner),
      }),
      verifier: verifier ? invoke(verifier) : undefined,
      finalizer: typeof finalizer === 'function' ? { reducer: finalizer } : { invoker: invoke(finalizer) },
    };
  }

  /**
   * Runs one plan step job through the escalation ladder with this
   * orchestrator's models and tools — what a remote step worker calls.
   */
  runStep(job: StepJob, context: StepJobContext): Promise<StepJobResult> {
    return runStepJob(this.parts, job, context);
  }

  /** Starts a run. Consume it with `for await`, `run.on(type, fn)` or `await run.result`. */
  run(task: string, options: OrchestratorRunOptions = {}): OrchestratorRun {
    return this.start(
      { runId: this.runtime.ids.next('run'), task },
      emptyUsage(),
      options.signal,
      options.mode,
    );
  }

  /**
   * Continues a saved run — after an approval, a restart or a crash — without
   * re-running completed steps or re-executing tools whose results were
   * recorded. `responses` answer the state's pending interrupts (by id); see
   * {@link ResumeOptions}.
   * @throws RunStateError for a state of an unknown version or shape.
   */
  resume(saved: unknown, options: ResumeOptions = {}): OrchestratorRun {
    const state = parseRunState(saved);
    for (const [id, response] of Object.entries(options.responses ?? {})) {
      const interrupt = state.interrupts.find((i) => i.id === id);
      if (!interrupt) throw new ConfigError(`resume: no pending interrupt "${id}" in the saved state`);
      this.deliver(interrupt.toolCallId, id, response);
    }
    if (state.approvedScopes?.length) this.options.approvals?.restoreScopes(state.approvedScopes);
    state.interrupts = [];
    if (state.status !== 'completed') state.status = 'running';
    return this.start(state, { ...state.usage }, options.signal);
  }

  private deliver(toolCallId: string | undefined, id: string, response: ResumeResponse): void {
    if (toolCallId && this.options.approvals) this.options.approvals.answer(toolCallId, response);
    else if (this.options.interrupts) void this.options.interrupts.respond(id, response);
    else
      throw new ConfigError('resume: answering interrupts needs the `approvals` gate or an `interrupts` bus');
  }

  private start(
    initial: { runId: string; task: string } | RunState,
    usage: Usage,
    signal: AbortSignal | undefined,
    mode?: string,
  ): OrchestratorRun {
    const bus = new EventBus({ runId: initial.runId, clock: this.runtime.clock, usage });
    const recorder = new RunRecorder(
      {
        store: this.options.checkpoints,
        clock: this.runtime.clock,
        emit: bus,
        usage,
        approvals: this.options.approvals,
        onCheckpointError: this.options.onCheckpointError,
        onFatal: (error) => run?.abort(error),
      },
      initial,
    );
    recorder.listen((type, fn) => bus.on(type, fn));
    let run: OrchestratorRun | undefined;
    if (this.options.pauseOnInterrupt) {
      bus.on('interrupt', (e) => {
        // A deferred approval lets its batch finish; the executor then ends the step with the pause.
        if (this.defersApprovals && e.interrupt.kind === 'approval') return;
        void recorder
          .save()
          .then(() =>
            run?.abort(
              new RunError(
                'interrupted',
                `Paused for "${e.interrupt.title}"; resume with orchestrator.resume(state, responses)`,
              ),
            ),
          );
      });
    }
    run = new OrchestratorRun(
      {
        bus,
        signal,
        usage: () => usage,
        body: async (runSignal) => {
          bus.emit('run_started', { input: recorder.state.task });
          try {
            const result =
              recorder.state.status === 'completed'
                ? completedResult(recorder.state)
                : await new Orchestration(this.parts, bus, recorder, runSignal).run(mode);
            // The last save (phase `done`) may have failed after the work was done.
            if (recorder.fatal) throw recorder.fatal;
            result.usage = { ...usage };
            const checkpoints = recorder.checkpoints();
            if (checkpoints) result.checkpoints = checkpoints;
            return result;
          } catch (error) {
            const pause = pauseOf(runSignal.reason) ?? pauseOf(error);
            // An execution that paused stops the run's other work (parallel steps) before the state is saved.
            if (pause && !runSignal.aborted) run?.abort(pause);
            const fatal = recorder.fatal;
            await recorder.end(pause ? 'paused' : runSignal.aborted && !fatal ? 'running' : 'failed');
            throw fatal ?? pause ?? error;
          }
        },
        complete: (r) => ({ output: r.output, status: r.status, usage: r.usage }),
      },
      recorder,
    );
    return run;
  }
}

type ResumeResponse = NonNullable<ResumeOptions['responses']>[string];

/** `error` when it is a pause (a `RunError` of kind `interrupted`). */
function pauseOf(error: unknown): RunError | undefined {
  return error instanceof RunError && error.kind === 'interrupted' ? error : undefined;
}

function completedResult(state: RunState): OrchestratorResult {
  return {
    output: state.output ?? '',
    status: 'success',
    complexity: state.complexity ?? 'simple',
    steps: [],
    revisions: state.revisions,
    usage: emptyUsage(),
  };
}
