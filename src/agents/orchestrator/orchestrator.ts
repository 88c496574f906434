/**
 * The Orchestrator: classify → (simple) one Executor run, or (complex) plan →
 * dispatch steps → verify → re-plan (bounded) → finalize, emitting typed
 * events throughout (the flow: `flow.ts`); runs can be saved and resumed
 * (`run.state()`, `orchestrator.resume(state, responses)`).
 * @module
 */
import { ConfigError } from '../../core/errors.js';
import { EventBus } from '../../core/event-bus.js';
import type { EventPayloads } from '../../core/events.js';
import { type PriceLookup, pricesOption } from '../../core/pricing.js';
import { checkModelPrices, isBudgetStop, RunBudget, watchBudget } from '../../core/run-budget.js';
import { type Runtime, resolveRuntime } from '../../core/seams.js';
import { emptyUsage, type Usage } from '../../core/usage.js';
import type { Schema } from '../../model/schema.js';
import { outputFormat } from '../../model/structured.js';
import { parseRunState, type RunState } from '../../state/run-state.js';
import { Run, type RunInit } from '../run.js';
import { buildParts, defersApprovals, type OrchestrationParts } from './collaborators.js';
import { Orchestration } from './flow.js';
import type {
  OrchestratorOptions,
  OrchestratorResult,
  OrchestratorResultOf,
  OrchestratorRunOptions,
  ResumeOptions,
  StructuredOrchestratorResult,
} from './options.js';
import { budgetStopped, pauseOnInterrupts, stopped } from './pause.js';
import { RunRecorder } from './run-recorder.js';
import type { RunScope } from './run-scope.js';
import { runStepJob } from './run-step-job.js';
import type { StepJob, StepJobContext, StepJobResult } from './step-job.js';
import { savedObject } from './structured-result.js';

/** A running orchestration: a {@link Run} whose state can be saved. `R` is its result (with `object` when structured). */
export class OrchestratorRun<R extends OrchestratorResult = OrchestratorResult> extends Run<R> {
  constructor(
    init: RunInit<R>,
    private readonly recorder: RunRecorder,
  ) {
    super(init);
  }

  /** The run's state as of now: versioned JSON for `orchestrator.resume`. */
  state(): RunState {
    return this.recorder.snapshot();
  }
}

/**
 * Drives whole runs. See the module docs for the lifecycle. With an `output`
 * schema (on the orchestrator or one run), the result also carries the
 * answer as an `object` of the schema's type.
 */
export class Orchestrator<T = undefined> {
  private readonly options: OrchestratorOptions;
  private readonly runtime: Runtime;
  private readonly parts: OrchestrationParts;
  /** Pausing with the `approvals` gate: its questions are deferred, so a tool batch finishes before the pause. */
  private readonly defersApprovals: boolean;
  private readonly prices: PriceLookup | undefined;

  /** @throws ConfigError for an unknown `onCheckpointError`, invalid `plannerOptions`, or an `output` that is not a schema with a JSON Schema. */
  constructor(options: OrchestratorOptions<T>) {
    const policy = options.onCheckpointError;
    if (policy !== undefined && policy !== 'warn' && policy !== 'fail') {
      throw new ConfigError(`onCheckpointError must be 'warn' or 'fail', got ${JSON.stringify(policy)}`);
    }
    if (options.output !== undefined) outputFormat(options.output);
    this.options = options;
    this.prices = pricesOption(options.prices);
    this.runtime = resolveRuntime(options.runtime);
    this.defersApprovals = defersApprovals(options);
    this.parts = buildParts(options, this.runtime, this.defersApprovals);
  }

  /**
   * Runs one plan step job through the escalation ladder with this
   * orchestrator's models and tools — what a remote step worker calls.
   */
  runStep(job: StepJob, context: StepJobContext): Promise<StepJobResult> {
    return runStepJob(this.parts, job, context);
  }

  /** Starts a run. Consume it with `for await`, `run.on(type, fn)` or `await run.result`. */
  run<U>(
    task: string,
    options: OrchestratorRunOptions & { output: Schema<U> },
  ): OrchestratorRun<StructuredOrchestratorResult<U>>;
  run(task: string, options?: OrchestratorRunOptions): OrchestratorRun<OrchestratorResultOf<T>>;
  // The overloads type the result; one implementation serves both.
  run(task: string, options: OrchestratorRunOptions = {}): OrchestratorRun<any> {
    return this.start({ runId: this.runtime.ids.next('run'), task }, emptyUsage(), options);
  }

  /**
   * Continues a saved run — after an approval, a restart or a crash — without
   * re-running completed steps or re-executing tools whose results were
   * recorded. `responses` answer the state's pending interrupts (by id); see
   * {@link ResumeOptions}. With `checkpoints`, the resumed run first claims
   * the run in the store (it saves the next revision only if the store still
   * holds the state's): of two resumes of the same state, one runs and the
   * other ends with a `CheckpointError` of kind `conflict`, having delivered
   * no answer and run nothing.
   * @throws RunStateError for a state of an unknown version or shape.
   */
  resume(saved: unknown, options: ResumeOptions = {}): OrchestratorRun<OrchestratorResultOf<T>> {
    const state = parseRunState(saved);
    const deliveries = Object.entries(options.responses ?? {}).map(([id, response]) => {
      const interrupt = state.interrupts.find((i) => i.id === id);
      if (!interrupt) throw new ConfigError(`resume: no pending interrupt "${id}" in the saved state`);
      return this.delivery(interrupt.toolCallId, id, response);
    });
    const scopes = state.approvedScopes ?? [];
    state.interrupts = [];
    if (state.status !== 'completed') state.status = 'running';
    delete state.error;
    // Answers reach the (shared) gate only once this resume owns the run.
    const claimed = () => {
      if (scopes.length) this.options.approvals?.restoreScopes(scopes);
      for (const deliver of deliveries) deliver();
    };
    const run = this.start(state, { ...state.usage }, options, claimed);
    return run as OrchestratorRun<OrchestratorResultOf<T>>;
  }

  /** How an answer is delivered. @throws ConfigError when nothing can take it. */
  private delivery(toolCallId: string | undefined, id: string, response: ResumeResponse): () => void {
    const { approvals, interrupts } = this.options;
    if (toolCallId && approvals) return () => approvals.answer(toolCallId, response);
    if (interrupts) return () => void interrupts.respond(id, response);
    throw new ConfigError('resume: answering interrupts needs the `approvals` gate or an `interrupts` bus');
  }

  /** Starts a run; `claimed` (a resume) runs once the run is claimed in the store, before any work. */
  private start(
    initial: { runId: string; task: string } | RunState,
    usage: Usage,
    options: OrchestratorRunOptions,
    claimed?: () => void,
  ): OrchestratorRun {
    const { signal, mode } = options;
    const output = options.output ?? this.options.output;
    const { clock, tracing } = this.runtime;
    const limits = { ...this.options.budget, ...options.budget };
    // Before any work: a cost limit that cannot count some model refuses to start in `fail` mode.
    const unpriced = checkModelPrices(limits, this.parts.models, this.prices);
    const bus = new EventBus({ runId: initial.runId, clock, usage, prices: this.prices, tracing });
    let run: OrchestratorRun | undefined;
    const abort = (reason: unknown) => run?.abort(reason);
    const recorder = new RunRecorder(
      {
        store: this.options.checkpoints,
        clock: this.runtime.clock,
        emit: bus,
        usage,
        approvals: this.options.approvals,
        onCheckpointError: this.options.onCheckpointError,
        onFatal: abort,
      },
      initial,
    );
    recorder.listen((type, fn) => bus.on(type, fn));
    if (this.options.pauseOnInterrupt) pauseOnInterrupts(bus, recorder, this.defersApprovals, abort);
    const unwatch = RunBudget.isSet(limits) ? watchBudget(bus, limits, clock, abort) : undefined;
    run = new OrchestratorRun(
      {
        bus,
        signal,
        usage: () => usage,
        body: (runSignal) =>
          this.body({ bus, recorder, signal: runSignal }, usage, abort, { mode, output, unpriced, claimed }),
        complete: (r) => ({ output: r.output, status: r.status, usage: r.usage }),
      },
      recorder,
    );
    if (unwatch) run.result.then(unwatch, unwatch);
    return run;
  }

  /** The work of a run: the flow, unless the saved run already completed. */
  private async body(
    scope: RunScope,
    usage: Usage,
    abort: (reason: unknown) => void,
    how: {
      mode?: string;
      output?: Schema;
      unpriced?: EventPayloads['unpriced_models'];
      claimed?: () => void;
    },
  ): Promise<OrchestratorResult> {
    const { bus, recorder, signal } = scope;
    bus.emit('run_started', { input: recorder.state.task });
    if (how.unpriced) bus.emit('unpriced_models', how.unpriced);
    if (how.claimed) {
      // Outside the try: a resume that lost the claim must not record its end over the winner's state.
      await recorder.claim();
      how.claimed();
    }
    try {
      const result =
        recorder.state.status === 'completed'
          ? await savedObject(scope, this.parts, completedResult(recorder.state), how.output)
          : await new Orchestration(this.parts, bus, recorder, signal).run(how.mode, how.output);
      // The last save (phase `done`) may have failed after the work was done.
      if (recorder.fatal) throw recorder.fatal;
      result.usage = { ...usage };
      const checkpoints = recorder.checkpoints();
      if (checkpoints) result.checkpoints = checkpoints;
      return result;
    } catch (error) {
      if (isBudgetStop(signal.reason)) return budgetStopped(recorder, signal.reason, usage);
      throw await stopped(recorder, signal, error, abort);
    }
  }
}

type ResumeResponse = NonNullable<ResumeOptions['responses']>[string];

/** The result of a saved run that had already completed. */
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
