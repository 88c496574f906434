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
import { DEFAULT_SKILL_MODES, type OrchestratorResult, type SkillMode } from './orchestrator-options.js';
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
    const unknownMode = mode && !this.isMode(mode) ? mode : undefined;
    if (mode && !unknownMode) return this.explicit(task, mode);
    if (!state.complexity) {
      const routed = await this.route(task, unknownMode);
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

  /** Whether `mode` names a dedicated skill mode or an agent of `handoffs`. */
  private isMode(mode: string): boolean {
    return !!this.skillMode(mode) || !!this.parts.options.handoffs?.has(mode);
  }

  /** The dedicated skill mode `mode` names, when there are skills to run it. */
  private skillMode(mode: string): SkillMode | undefined {
    const { skills, skillModes = DEFAULT_SKILL_MODES } = this.parts.options;
    // Own keys only: a mode such as "constructor" is not a skill mode.
    return skills && Object.hasOwn(skillModes, mode) ? skillModes[mode] : undefined;
  }

  /**
   * Routes with the router, when there is one. An explicit mode that names
   * nothing falls through to it (seed 003), and its `routing` event says so;
   * with no router to fall through to, that mode is a configuration error.
   */
  private async route(task: string, unknownMode?: string): Promise<OrchestratorResult | undefined> {
    const { router, handoffs } = this.parts.options;
    if (!router || !handoffs) {
      if (unknownMode === undefined) return undefined;
      throw new ConfigError(
        `Unknown mode "${unknownMode}": not a skill mode or an agent, and no router to fall through to`,
      );
    }
    const routing = await stage(this.bus, 'routing', () =>
      router.route(task, { signal: this.signal, emit: this.bus.scope({ agent: 'router' }) }),
    );
    const note = unknownMode === undefined ? undefined : `Unknown mode "${unknownMode}", routed instead`;
    this.bus.emit(
      'routing',
      note ? { ...routing, reason: routing.reason ? `${note}: ${routing.reason}` : note } : routing,
    );
    if (routing.agent === router.defaultAgent) return undefined;
    return this.agent(task, routing.agent);
  }

  /** An explicit mode (see {@link isMode}): a dedicated skill mode (no model turn), or a named agent. */
  private async explicit(task: string, mode: string): Promise<OrchestratorResult> {
    const { skills } = this.parts.options;
    const skillMode = this.skillMode(mode);
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
