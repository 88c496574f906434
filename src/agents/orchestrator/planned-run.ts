/**
 * The planned path of an orchestration, one phase per file: plan
 * (`planning.ts`), dispatch the steps in dependency order (`dispatch.ts`)
 * through the escalation ladder (`escalation-ladder.ts`), verify
 * (`verify.ts`), re-plan failed work, bounded (`replan.ts`), finalize
 * (`finalize.ts`) — recording the state at every boundary and keeping the
 * checklist (`todo-checklist.ts`) current.
 * @module
 */
import { RunError } from '../../core/errors.js';
import { ChecklistWriter } from './checklist-writer.js';
import type { OrchestrationParts } from './collaborators.js';
import { dispatchSteps, type StepRecord } from './dispatch.js';
import { finalizePhase } from './finalize.js';
import type { FinalizeInput } from './option-groups.js';
import type { PhaseResult } from './phase-result.js';
import { type PlannerCall, type PlanProgress, planPhase } from './planning.js';
import { replanPhase } from './replan.js';
import { type RunRequest, requestConversation, requestOf } from './run-request.js';
import type { RunScope } from './run-scope.js';
import { runStepJob } from './run-step-job.js';
import { stage } from './stage-events.js';
import type { StepJob, StepRunner } from './step-job.js';
import { findingsFor } from './step-prompt.js';
import { stepResults } from './step-result.js';
import { checklistStore, type TodoStore } from './todo-checklist.js';
import { type Verification, verifyPhase } from './verify.js';

/** One run's planned path. */
export class PlannedRun {
  private readonly todo: TodoStore;
  private readonly checklist: ChecklistWriter;
  private readonly scope: RunScope;
  /** What the run was asked, in the conversation it continues. */
  private readonly request: RunRequest;
  /** Runs step jobs: the configured `stepRunner`, else the escalation ladder here. */
  private readonly runner: StepRunner;

  constructor(
    private readonly parts: OrchestrationParts,
    scope: RunScope,
  ) {
    this.todo = checklistStore(parts.options);
    this.checklist = new ChecklistWriter(this.todo, scope.bus);
    this.scope = scope;
    this.request = requestOf(scope.recorder.state);
    this.runner = parts.options.stepRunner ?? ((job, context) => runStepJob(parts, job, context));
  }

  /** Plans (or restores the saved plan), runs the steps, verifies, re-plans and finalizes. */
  async run(): Promise<PhaseResult> {
    const { parts, scope, request } = this;
    const task = request.text;
    const call: PlannerCall = {
      planner: parts.planner,
      emit: scope.bus.scope({ agent: 'planner' }),
      tools: (await parts.tools.specs()).map((t) => ({ name: t.name, description: t.description })),
    };
    const state = scope.recorder.state;
    const progress = await planPhase(scope, request, call);
    await this.writeTodo(progress);

    let verification = state.verification as Verification | undefined;
    let revisions = state.revisions;
    while (state.phase !== 'finalizing') {
      await this.dispatch(progress);
      if (!parts.verifier) break;
      const judged = await verifyPhase(scope, parts.verifier, { request, order: progress.order });
      verification = judged;
      if (judged.verdict !== 'fail' || revisions >= (parts.options.maxReplans ?? 1)) break;
      revisions++;
      await replanPhase(scope, progress, { request, call, judged, revisions });
      await this.writeTodo(progress);
    }

    const { plan } = progress;
    const steps = stepResults(progress.order);
    const input: FinalizeInput = { task, plan, steps };
    if (request.history.length) input.history = request.history;
    const final = await finalizePhase(scope, parts.finalizer, { input, revisions, verification });
    return {
      output: final.output,
      status: final.status,
      complexity: 'complex',
      plan,
      steps,
      verification,
      revisions,
    };
  }

  /** Runs the plan's pending steps in dependency order; a skipped step is reported and saved. */
  private dispatch(progress: PlanProgress): Promise<void> {
    const snapshot = { ...progress };
    const { bus, recorder } = this.scope;
    return stage(bus, 'executing', () =>
      dispatchSteps(snapshot.order, snapshot.records, {
        concurrency: this.parts.options.stepConcurrency ?? 1,
        onSkip: (record, reason) => {
          bus.scope({ stepId: record.step.id }).emit('plan_step_failed', {
            error: { kind: 'skipped', message: reason },
            willRetry: false,
            skipped: true,
          });
          void recorder.save();
        },
        runStep: (record) => this.runStep(record, snapshot),
      }),
    );
  }

  /**
   * One step as a job — here, or on the configured `stepRunner` — with the
   * checklist and the state saved before and after it.
   */
  private async runStep(record: StepRecord, progress: PlanProgress): Promise<void> {
    const { bus, recorder, signal, budget } = this.scope;
    // A step starts only within budget; the stop (it aborts the run) ends the plan as `partial`.
    const spent = budget?.check();
    if (spent) throw spent;
    const { plan, records, order } = progress;
    const id = record.step.id;
    const resume = recorder.state.conversations[id];
    await this.writeTodo(progress);
    await recorder.save();
    const job: StepJob = {
      runId: bus.runId,
      plan,
      step: record.step,
      findings: findingsFor(record.step, records, order),
      todo: await this.todo.read(),
      attempts: record.attempts,
      task: this.request.text,
    };
    // A step that builds on no other works from the request itself: it sees the conversation, images and files included.
    const conversation = record.step.dependsOn.length === 0 ? requestConversation(this.request) : undefined;
    if (conversation) job.conversation = conversation;
    if (resume) job.resume = resume;
    const outcome = await this.runner(job, {
      signal,
      budget,
      emit: bus,
      onConversation: (conversation, messages) => recorder.conversation(id, conversation, messages),
    });
    if (outcome.status === 'interrupted') {
      // Read from the step's result: the run pauses (pause.ts saves it) and a resume continues the step.
      throw new RunError('interrupted', outcome.error ?? `Step ${id} waits for a human answer`);
    }
    // The job's result is the step's record from now on (an earlier attempt's error goes with it).
    const { status, output, error, attempts } = outcome;
    Object.assign(record, { status, output, error, attempts });
    recorder.endConversation(id);
    if (record.status === 'completed') {
      bus.scope({ stepId: id }).emit('plan_step_completed', {
        output: (await this.shown(record.output)).slice(0, 200),
        completed: completedCount(order),
        total: order.length,
      });
    }
    await this.writeTodo(progress);
    await recorder.save();
  }

  /**
   * A step's output as events may show it: with output guardrails, as they
   * leave it (checked whole, then cut, so no address is cut past a rule's
   * reach). The step itself keeps its output: later steps and the finalizer
   * work from it, and the answer they make is checked.
   */
  private async shown(output: string): Promise<string> {
    const guardrails = this.parts.options.guardrails;
    if (!guardrails?.checksOutput) return output;
    return (await guardrails.checkOutput(output, { signal: this.scope.signal })).text;
  }

  private writeTodo(progress: PlanProgress): Promise<void> {
    return this.checklist.write(progress.plan, progress.order);
  }
}

function completedCount(order: readonly StepRecord[]): number {
  let completed = 0;
  for (const record of order) if (record.status === 'completed') completed++;
  return completed;
}
