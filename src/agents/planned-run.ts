/**
 * The planned path of an orchestration: plan (or the saved plan), dispatch
 * the steps through the escalation ladder, verify, re-plan failed work
 * (bounded), finalize — recording the state at every boundary.
 * @module
 */
import type { EventBus } from '../core/event-bus.js';
import type { PlanStepView } from '../core/events.js';
import { emptyUsage } from '../core/usage.js';
import { dispatchSteps, type StepRecord } from './dispatch.js';
import { finalizeAnswer } from './finalizer.js';
import type { OrchestrationParts } from './orchestration-parts.js';
import { stage } from './orchestration-stage.js';
import type { OrchestratorResult } from './orchestrator-options.js';
import { type Plan, type PlanStep, planSchema } from './plan.js';
import type { RevisionContext } from './planner.js';
import type { RunRecorder } from './run-recorder.js';
import { runStepJob } from './step-job.js';
import type { StepJob, StepRunner } from './step-job-types.js';
import { findingsFor, stepView } from './step-runner.js';
import { MemoryTodoStore, renderTodo, SandboxTodoStore, type TodoStore, todoProgress } from './todo.js';
import { type Verification, verifyResults } from './verifier.js';

/** One run's planned path. */
export class PlannedRun {
  private readonly todo: TodoStore;

  constructor(
    private readonly parts: OrchestrationParts,
    private readonly bus: EventBus,
    private readonly recorder: RunRecorder,
    private readonly signal: AbortSignal,
  ) {
    const { options } = parts;
    this.todo =
      options.todoStore ?? (options.sandbox ? new SandboxTodoStore(options.sandbox) : new MemoryTodoStore());
  }

  /** Plans (or restores the saved plan), runs the steps, verifies, re-plans and finalizes. */
  async run(task: string): Promise<OrchestratorResult> {
    const { bus, recorder, signal, parts } = this;
    const plannerEmit = bus.scope({ agent: 'planner' });
    const toolHints = parts.tools.specs().map((t) => ({ name: t.name, description: t.description }));
    const state = recorder.state;
    let plan: Plan;
    const records = new Map<string, StepRecord>();
    let order: StepRecord[];
    if (state.plan) {
      // States saved before a summary was required hold `summary: ''`; the title stands in for it.
      const saved = state.plan as { summary?: string; title?: string };
      plan = planSchema.parse({ ...saved, summary: saved.summary?.trim() || saved.title });
      for (const saved of state.steps) {
        const step = saved.step as unknown as PlanStep;
        // A step that was running when the state was saved continues from its saved conversation.
        const status = saved.status === 'running' ? 'pending' : saved.status;
        records.set(step.id, {
          step,
          status,
          output: saved.output,
          error: saved.error,
          attempts: saved.attempts,
        });
      }
      order = plan.steps.map((step) => records.get(step.id) ?? this.fresh(step, records));
    } else {
      plan = await stage(bus, 'planning', () =>
        parts.planner.createPlan(task, '', { signal, emit: plannerEmit, tools: toolHints }),
      );
      order = this.adopt(plan, records);
      recorder.track(plan, records, order);
      await recorder.phase('dispatching');
    }
    recorder.track(plan, records, order);
    bus.emit('plan_overview', { title: plan.title, summary: plan.summary, steps: order.map(stepView) });
    await this.writeTodo(plan, order);

    let verification = state.verification as Verification | undefined;
    let revisions = state.revisions;
    while (state.phase !== 'finalizing') {
      await this.dispatch(plan, records, order);
      if (!parts.verifier) break;
      await recorder.phase('verifying');
      const judged = await stage(bus, 'verifying', () =>
        verifyResults({
          invoker: parts.verifier!,
          task,
          steps: order.map((r) => ({
            id: r.step.id,
            status: r.status,
            output: r.status === 'completed' ? r.output : (r.error ?? ''),
          })),
          signal,
          emit: bus.scope({ agent: 'verifier' }),
        }),
      );
      verification = judged;
      if (judged.verdict !== 'fail' || revisions >= (parts.options.maxReplans ?? 1)) break;
      revisions++;
      const context = revisionContext(task, order, judged.reason);
      plan = await stage(bus, 'replanning', () =>
        parts.planner.revise(plan, context, { signal, emit: plannerEmit, tools: toolHints }),
      );
      order = this.adopt(plan, records);
      recorder.track(plan, records, order);
      await recorder.phase('dispatching', { revisions, verification: judged });
      bus.emit('plan_revised', { reason: judged.reason, revision: revisions, steps: order.map(stepView) });
      await this.writeTodo(plan, order);
    }

    await recorder.phase('finalizing', verification ? { revisions, verification } : { revisions });
    const finalPlan = plan;
    const steps = order;
    const final = await stage(bus, 'finalizing', () =>
      finalizeAnswer(
        { task, plan: finalPlan, steps },
        { ...parts.finalizer, signal, emit: bus.scope({ agent: 'finalizer' }) },
      ),
    );
    const completed = steps.filter((r) => r.status === 'completed').length;
    const status =
      completed === steps.length && verification?.verdict !== 'fail'
        ? 'success'
        : completed
          ? 'partial'
          : 'failed';
    return {
      output: final.output,
      status,
      complexity: 'complex',
      plan,
      steps,
      verification,
      revisions,
      usage: emptyUsage(),
    };
  }

  private dispatch(plan: Plan, records: Map<string, StepRecord>, order: StepRecord[]): Promise<void> {
    const { bus, recorder, signal, parts } = this;
    const { options } = parts;
    return stage(bus, 'executing', () =>
      dispatchSteps(order, records, {
        concurrency: options.stepConcurrency ?? 1,
        onSkip: (record, reason) => {
          bus.scope({ stepId: record.step.id }).emit('plan_step_failed', {
            error: { kind: 'skipped', message: reason },
            willRetry: false,
            skipped: true,
          });
          void recorder.save();
        },
        runStep: async (record) => {
          const id = record.step.id;
          const resume = recorder.state.conversations[id];
          await this.writeTodo(plan, order);
          await recorder.save();
          const job: StepJob = {
            runId: bus.runId,
            plan,
            step: record.step,
            findings: findingsFor(record.step, records, order),
            todo: await this.todo.read(),
            attempts: record.attempts,
          };
          if (resume) job.resume = resume;
          const runner: StepRunner = options.stepRunner ?? ((j, c) => runStepJob(parts, j, c));
          const outcome = await runner(job, {
            signal,
            emit: bus,
            onConversation: (conversation, messages) => recorder.conversation(id, conversation, messages),
          });
          record.status = outcome.status;
          record.output = outcome.output;
          record.error = outcome.error;
          record.attempts = outcome.attempts;
          recorder.endConversation(id);
          if (record.status === 'completed') {
            bus.scope({ stepId: id }).emit('plan_step_completed', {
              output: record.output.slice(0, 200),
              completed: order.filter((r) => r.status === 'completed').length,
              total: order.length,
            });
          }
          await this.writeTodo(plan, order);
          await recorder.save();
        },
      }),
    );
  }

  /**
   * Records for a new or revised plan's steps: a completed step keeps its
   * result and is not run again; failed, skipped and new steps are pending.
   * (A resumed run restores its records as saved instead.)
   */
  private adopt(plan: Plan, records: Map<string, StepRecord>): StepRecord[] {
    return plan.steps.map((step) => {
      const existing = records.get(step.id);
      return existing?.status === 'completed' ? existing : this.fresh(step, records);
    });
  }

  private fresh(step: PlanStep, records: Map<string, StepRecord>): StepRecord {
    const record: StepRecord = { step, status: 'pending', output: '', attempts: 0 };
    records.set(step.id, record);
    return record;
  }

  private async writeTodo(plan: Plan, order: readonly StepRecord[]): Promise<void> {
    const views: PlanStepView[] = order.map(stepView);
    const content = renderTodo(plan.title, views, new Map(order.map((r) => [r.step.id, r.step.tools])));
    try {
      await this.todo.write(content);
    } catch {
      // A checklist that cannot be saved must not fail the run; the event still carries it.
    }
    this.bus.emit('todo_update', { content, ...todoProgress(content) });
  }
}

function revisionContext(task: string, order: readonly StepRecord[], reason: string): RevisionContext {
  return {
    reason: `The verifier judged the result a FAIL: ${reason}`,
    task,
    completed: order
      .filter((r) => r.status === 'completed')
      .map((r) => ({ id: r.step.id, output: r.output })),
    failed: order
      .filter((r) => r.status !== 'completed')
      .map((r) => ({ id: r.step.id, error: r.error ?? `Step ${r.status}.` })),
  };
}
