/**
 * One orchestration run: the flow from classification to the final answer,
 * recording its state as it goes so it can be resumed.
 * @module
 */
import { ConfigError, RunError } from '../core/errors.js';
import type { EventBus } from '../core/event-bus.js';
import { emptyUsage } from '../core/usage.js';
import { classifyTask } from './classify-task.js';
import type { OrchestrationParts } from './orchestration-parts.js';
import { stage } from './orchestration-stage.js';
import { DEFAULT_SKILL_MODES, type OrchestratorResult } from './orchestrator-options.js';
import { PlannedRun } from './planned-run.js';
import type { RunRecorder } from './run-recorder.js';

/** Runs (or resumes) one orchestration on `bus`, recording into `recorder`. */
export class Orchestration {
  constructor(
    private readonly parts: OrchestrationParts,
    private readonly bus: EventBus,
    private readonly recorder: RunRecorder,
    private readonly signal: AbortSignal,
  ) {}

  /** From the start, or from wherever the recorded state stopped. */
  async run(mode?: string): Promise<OrchestratorResult> {
    const state = this.recorder.state;
    const task = state.task;
    const guardrails = this.parts.options.guardrails;
    if (guardrails && state.phase === 'classifying') {
      const verdict = await guardrails.checkInput(task, { emit: this.bus, signal: this.signal });
      if (verdict.blocked)
        throw new RunError('guardrail', `Input blocked: ${verdict.reason ?? 'policy violation'}`);
    }
    if (mode) return this.explicit(task, mode);
    if (!state.complexity) {
      const routed = await this.route(task);
      if (routed) return routed;
      const classification = await stage(this.bus, 'classifying', () =>
        classifyTask(task, this.parts.options.classify ?? 'auto', this.parts.planner, {
          signal: this.signal,
          emit: this.bus,
        }),
      );
      this.bus.emit('routing', classification.routing);
      const complexity = classification.complexity;
      await this.recorder.phase(complexity === 'simple' ? 'executing' : 'planning', {
        complexity,
        routing: classification.routing,
      });
    }
    if (this.recorder.state.complexity === 'simple') return this.simple(task);
    return this.finish(await new PlannedRun(this.parts, this.bus, this.recorder, this.signal).run(task));
  }

  private async route(task: string): Promise<OrchestratorResult | undefined> {
    const { router, handoffs } = this.parts.options;
    if (!router || !handoffs) return undefined;
    const routing = await stage(this.bus, 'routing', () =>
      router.route(task, { signal: this.signal, emit: this.bus }),
    );
    this.bus.emit('routing', routing);
    if (routing.agent === router.defaultAgent) return undefined;
    return this.agent(task, routing.agent);
  }

  /** An explicit mode: a named agent, or a dedicated skill mode (no model turn). */
  private async explicit(task: string, mode: string): Promise<OrchestratorResult> {
    const { skills, handoffs } = this.parts.options;
    const skillMode = (this.parts.options.skillModes ?? DEFAULT_SKILL_MODES)[mode];
    this.bus.emit('routing', {
      agent: mode,
      confidence: 1,
      reason: 'Explicit mode selection',
      method: 'explicit',
    });
    if (skillMode && skills) {
      const output = await stage(this.bus, 'skill', () =>
        skills.invokeDirect(
          skillMode.skill,
          { [skillMode.param]: task },
          { signal: this.signal, emit: this.bus, sandbox: this.parts.options.sandbox },
        ),
      );
      const text = typeof output === 'string' ? output : JSON.stringify(output, null, 2);
      return this.finish({
        output: text,
        status: 'success',
        complexity: 'simple',
        steps: [],
        revisions: 0,
        usage: emptyUsage(),
      });
    }
    if (!handoffs) {
      throw new ConfigError(
        `Unknown mode "${mode}": not a skill mode and no handoffs (agents) are configured`,
      );
    }
    return this.agent(task, mode);
  }

  private async agent(task: string, agent: string): Promise<OrchestratorResult> {
    const handoffs = this.parts.options.handoffs!;
    const result = await handoffs.run(agent, task, { signal: this.signal, emit: this.bus });
    return this.finish({
      output: result.output,
      status: result.result.status,
      complexity: 'simple',
      steps: [],
      revisions: 0,
      agent: result.agent,
      usage: emptyUsage(),
    });
  }

  private async simple(task: string): Promise<OrchestratorResult> {
    const saved = this.recorder.state.conversations.main;
    const result = await stage(this.bus, 'executing', () =>
      this.parts.executor.execute(saved ? [] : task, {
        signal: this.signal,
        history: saved?.messages,
        emit: this.bus.scope({ agent: 'executor' }),
        onCheckpoint: (messages) => this.recorder.conversation('main', { mode: 'direct' }, messages),
      }),
    );
    this.recorder.endConversation('main');
    return this.finish({
      output: result.output,
      status: result.status,
      complexity: 'simple',
      steps: [],
      revisions: 0,
      usage: emptyUsage(),
    });
  }

  /** Scans the answer (the transcript keeps what the scan returns), records it, and returns the result. */
  private async finish(result: OrchestratorResult): Promise<OrchestratorResult> {
    const guardrails = this.parts.options.guardrails;
    if (guardrails) {
      const verdict = await guardrails.checkOutput(result.output, { emit: this.bus, signal: this.signal });
      result.output = verdict.text;
    }
    await this.recorder.phase('done', { status: 'completed', output: result.output });
    return result;
  }
}
