/**
 * The Orchestrator: classify → (simple) one Executor run, or (complex) plan →
 * dispatch steps → verify → re-plan (bounded) → finalize, emitting typed
 * events throughout (the flow: `flow.ts`); runs can be saved and resumed
 * (`run.state()`, `orchestrator.resume(state, responses)`).
 * @module
 */
import { ConfigError, isErrorOf } from '../../core/errors.js';
import { EventBus } from '../../core/event-bus.js';
import type { EventPayloads } from '../../core/events.js';
import { type PriceLookup, pricesOption } from '../../core/pricing.js';
import { completePayload, Run, type RunInit, toTandemError } from '../../core/run.js';
import { BudgetGuard, checkModelPrices, isBudgetStop, RunBudget } from '../../core/run-budget.js';
import { contentText, type RunInput, splitInput } from '../../core/run-input.js';
import { type Runtime, resolveRuntime } from '../../core/seams.js';
import { emptyUsage, type Usage } from '../../core/usage.js';
import type { Schema } from '../../model/schema.js';
import { assertOutputSchema } from '../../model/structured.js';
import { type LongTermMemory, memoryOf } from '../../state/long-term-memory.js';
import { takeForResume } from '../../state/paused-state.js';
import { parseRunState, type RunState } from '../../state/run-state.js';
import { withSessionIds } from '../executor/index.js';
import { interruptedResult, takeAnswers, withApprovals } from './approvals.js';
import { buildParts, defersApprovals, type OrchestrationParts } from './collaborators.js';
import { Orchestration } from './flow.js';
import { aroundOrchestration } from './memory-turn.js';
import type {
  OrchestratorOptions,
  OrchestratorResult,
  OrchestratorResultOf,
  OrchestratorRunOptions,
  ResumeOptions,
  StructuredOrchestratorResult,
} from './options.js';
import { budgetStopped, failedResult, isPause, stopped } from './pause.js';
import type { PhaseResult } from './phase-result.js';
import { type NewRun, RunRecorder } from './run-recorder.js';
import type { RunScope } from './run-scope.js';
import { runStepJob } from './run-step-job.js';
import { OrchestrationSession, type SessionUse } from './session-run.js';
import { type OrchestratorSettings, orchestratorSettings } from './settings.js';
import type { StepJob, StepJobContext, StepJobResult } from './step-job.js';
import { savedObject } from './structured-result.js';

/** Where a run starts: its state (new, or saved), the usage it starts from, and, for a resume, its claim. */
interface RunStart {
  initial: NewRun | RunState;
  usage: Usage;
  /** A resume's: runs once the run is claimed in the store, before any work. */
  claimed?: () => void;
}

/** A run's usage, summed as it goes, and how to abort it. */
interface RunControl {
  usage: Usage;
  abort: (reason: unknown) => void;
}

/** A running orchestration: a {@link Run} whose state can be saved. `R` is its result (with `object` when structured). */
export class OrchestratorRun<R extends OrchestratorResult = OrchestratorResult> extends Run<R> {
  /** `snapshot` gives the run's state as of now. */
  constructor(
    init: RunInit<R>,
    private readonly snapshot: () => RunState,
  ) {
    super(init);
  }

  /** The run's state as of now: versioned JSON for `orchestrator.resume`. */
  state(): RunState {
    return this.snapshot();
  }
}

/**
 * Drives whole runs. See the module docs for the lifecycle. With an `output`
 * schema (on the orchestrator or one run), the result also carries the
 * answer as an `object` of the schema's type.
 */
export class Orchestrator<T = undefined> {
  private readonly options: OrchestratorSettings;
  private readonly runtime: Runtime;
  private readonly parts: OrchestrationParts;
  /** Pausing with the `approvals` gate: its questions are deferred, so a tool batch finishes before the pause. */
  private readonly defersApprovals: boolean;
  private readonly prices: PriceLookup | undefined;
  private readonly memory: LongTermMemory | undefined;

  /**
   * @throws ConfigError for missing models, an option of the flat shape before the groups,
   *   an unknown `checkpoints.onError`, invalid `planning` options, or an `output` that is
   *   not a schema with a JSON Schema.
   */
  constructor(options: OrchestratorOptions<T>) {
    const settings = orchestratorSettings(options);
    const policy = settings.onCheckpointError;
    if (policy !== undefined && policy !== 'warn' && policy !== 'fail') {
      throw new ConfigError(`checkpoints.onError must be 'warn' or 'fail', got ${JSON.stringify(policy)}`);
    }
    if (settings.output !== undefined) assertOutputSchema(settings.output);
    this.options = withApprovals(settings, settings.runtime ?? {});
    this.prices = pricesOption(options.prices);
    this.runtime = resolveRuntime(options.runtime);
    this.defersApprovals = defersApprovals(this.options);
    this.parts = buildParts(this.options, this.runtime, this.defersApprovals);
    // The same instance as its executors' (one per options object): they find the run's turn by its id.
    this.memory = settings.memory && memoryOf(settings.memory, this.runtime);
  }

  /**
   * Runs one plan step job through the escalation ladder with this
   * orchestrator's models and tools — what a remote step worker calls.
   */
  runStep(job: StepJob, context: StepJobContext): Promise<StepJobResult> {
    return runStepJob(this.parts, job, context);
  }

  /**
   * Starts a run on `input` — a string, content parts (text, images, files)
   * or messages ending with the user's request — continuing
   * `options.history`. Consume it with `for await`, `run.on(type, fn)` or
   * `await run.result`.
   * @throws ConfigError for input messages that do not end with a user message, or an invalid part.
   */
  run<U>(
    input: RunInput,
    options: OrchestratorRunOptions & { output: Schema<U> },
  ): OrchestratorRun<StructuredOrchestratorResult<U>>;
  run(input: RunInput, options?: OrchestratorRunOptions): OrchestratorRun<OrchestratorResultOf<T>>;
  // The overloads type the result; one implementation serves both.
  run(input: RunInput, runOptions: OrchestratorRunOptions = {}): OrchestratorRun<any> {
    const options = withSessionIds(runOptions);
    return this.start({ initial: this.newRun(input, options), usage: emptyUsage() }, options);
  }

  /** A new run's start: its id, its request as text and as given, and the conversation and ids it continues. */
  private newRun(input: RunInput, options: OrchestratorRunOptions): NewRun {
    const { history, content } = splitInput(input, options.history);
    const run: NewRun = { runId: options.runId ?? this.runtime.ids.next('run'), task: contentText(content) };
    if (typeof content !== 'string') run.input = content;
    if (history.length) run.history = history;
    if (options.resourceId !== undefined) run.resourceId = options.resourceId;
    if (options.threadId !== undefined) run.threadId = options.threadId;
    // Saved with the run, so that a resume (of a paused dedicated mode, say) continues in it.
    if (options.mode !== undefined) run.mode = options.mode;
    return run;
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
    // Answers reach the (shared) gate only once this resume owns the run.
    const claimed = takeAnswers(state, options.responses, this.options);
    takeForResume(saved);
    state.interrupts = [];
    if (state.status !== 'completed') state.status = 'running';
    delete state.error;
    if (options.mode !== undefined) state.mode = options.mode;
    const run = this.start({ initial: state, usage: { ...state.usage }, claimed }, options);
    return run as OrchestratorRun<OrchestratorResultOf<T>>;
  }

  /** Starts a run from `start` (see {@link RunStart}) with the run's `options`. */
  private start(start: RunStart, options: OrchestratorRunOptions): OrchestratorRun {
    const { initial, usage, claimed } = start;
    const { signal } = options;
    const mode = options.mode ?? initial.mode;
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
    // Asked between steps and by every execution at its turns; its first stop aborts the work in flight.
    const budget = RunBudget.isSet(limits)
      ? new BudgetGuard(limits, {
          clock,
          usage,
          report: (pressure) => bus.emit('budget', pressure),
          stop: abort,
        })
      : undefined;
    run = new OrchestratorRun(
      {
        bus,
        signal,
        usage: () => usage,
        body: (runSignal) =>
          this.body(
            { bus, recorder, signal: runSignal, budget },
            { usage, abort },
            {
              mode,
              output,
              unpriced,
              claimed,
              session: options.session && {
                session: options.session,
                historyLimit: options.historyLimit,
                resumed: claimed !== undefined,
              },
            },
          ),
        complete: completePayload,
      },
      () => recorder.snapshot(),
    );
    if (budget) run.result.finally(() => budget.dispose()).catch(() => {});
    const forget = () => {
      this.options.approvals?.forgetRun(initial.runId);
      this.parts.memories.release(initial.runId);
    };
    run.result.then(forget, forget);
    return run;
  }

  /** The work of a run: the flow, unless the saved run already completed. */
  private async body(
    scope: RunScope,
    { usage, abort }: RunControl,
    how: {
      mode?: string;
      output?: Schema;
      unpriced?: EventPayloads['unpriced_models'];
      claimed?: () => void;
      session?: SessionUse;
    },
  ): Promise<OrchestratorResult> {
    const { bus, recorder, signal } = scope;
    const { task, resourceId, threadId } = recorder.state;
    bus.emit('run_started', {
      input: task,
      ...(resourceId !== undefined && { resourceId }),
      ...(threadId !== undefined && { threadId }),
    });
    if (how.unpriced) bus.emit('unpriced_models', how.unpriced);
    if (how.claimed) {
      // Outside the try: a resume that lost the claim must not record its end over the winner's state.
      await recorder.claim();
      how.claimed();
    }
    try {
      const { clock } = this.runtime;
      const session =
        how.session && (await OrchestrationSession.open(how.session, recorder, { clock, emit: bus }));
      const phase =
        recorder.state.status === 'completed'
          ? await savedObject({ scope, parts: this.parts }, completedResult(recorder.state), how.output)
          : await aroundOrchestration(this.memory, { state: recorder.state, emit: bus, signal }, () =>
              new Orchestration(this.parts, scope).run(how.mode, how.output),
            );
      // The last save (phase `done`) may have failed after the work was done.
      if (recorder.fatal) throw recorder.fatal;
      const result: OrchestratorResult = { ...phase, usage: { ...usage } };
      const checkpoints = recorder.checkpoints();
      if (checkpoints) result.checkpoints = checkpoints;
      await session?.settle(result, recorder);
      return result;
    } catch (error) {
      if (isBudgetStop(signal.reason)) return budgetStopped(recorder, signal.reason, usage);
      const ended = await stopped(scope, error, abort);
      // A pause is an outcome, not a failure: the caller answers the questions and resumes.
      if (isPause(ended)) return interruptedResult(recorder, usage, ended);
      // Only misuse rejects; every other end is a result (docs/results.md).
      if (isErrorOf(ended, ConfigError)) throw ended;
      return failedResult(recorder, usage, toTandemError(ended, signal));
    }
  }
}

/** The result of a saved run that had already completed. */
function completedResult(state: RunState): PhaseResult {
  return {
    output: state.output ?? '',
    status: 'success',
    complexity: state.complexity ?? 'simple',
    steps: [],
    revisions: state.revisions,
  };
}
