/**
 * Runs that skip plan-or-not: an explicit mode — a dedicated skill mode (no
 * model turn) or an agent of `handoffs` named by `mode` — or the agent the
 * router picks. The results are not yet finished (output guardrails, the
 * `done` phase): the caller does that.
 * @module
 */
import { ConfigError, RunError } from '../../core/errors.js';
import type { RequestRun } from './collaborators.js';
import { defersApprovals } from './collaborators.js';
import { DEFAULT_SKILL_MODES, type SkillMode } from './options.js';
import type { PhaseResult } from './phase-result.js';
import type { RunScope } from './run-scope.js';
import type { OrchestratorSettings } from './settings.js';
import { invokeSkillMode } from './skill-mode.js';
import { stage } from './stage-events.js';

/** The handoff agent a paused run stopped in, whose conversation a resume continues. */
export function pausedAgent(scope: RunScope): string | undefined {
  return scope.recorder.state.conversations.main?.agent;
}

/** Whether `mode` names a dedicated skill mode or an agent of `handoffs`. */
export function isMode(options: OrchestratorSettings, mode: string): boolean {
  return !!skillMode(options, mode) || !!options.handoffs?.has(mode);
}

/**
 * Routes with the router, when there is one: the result of the agent it
 * picks, or `undefined` for the default agent (the plan-or-not flow). An
 * explicit mode that names nothing falls through to it (seed 003), and its
 * `routing` event says so; with no router to fall through to, that mode is a
 * configuration error.
 */
export async function routeToAgent(run: RequestRun, unknownMode?: string): Promise<PhaseResult | undefined> {
  const { scope, request } = run;
  const { router, handoffs } = run.parts.options;
  if (!router || !handoffs) {
    if (unknownMode === undefined) return undefined;
    throw new ConfigError(
      `Unknown mode "${unknownMode}": not a skill mode or an agent, and no router to fall through to`,
    );
  }
  const { bus, signal } = scope;
  const routing = await stage(bus, 'routing', () =>
    router.route(request.content, { signal, emit: bus.scope({ agent: 'router' }), history: request.history }),
  );
  const note = unknownMode === undefined ? undefined : `Unknown mode "${unknownMode}", routed instead`;
  bus.emit(
    'routing',
    note ? { ...routing, reason: routing.reason ? `${note}: ${routing.reason}` : note } : routing,
  );
  if (routing.agent === router.defaultAgent) return undefined;
  return runAgent(run, routing.agent);
}

/**
 * An explicit mode (see {@link isMode}): a dedicated skill mode (no model
 * turn; the skill runs through the gate, see `skill-mode.ts`), or a named
 * agent. A refused skill ends the run `failed`, the refusal as its output.
 */
export async function runExplicitMode(run: RequestRun, mode: string): Promise<PhaseResult> {
  const { bus } = run.scope;
  const { options } = run.parts;
  const { skills } = options;
  const chosen = skillMode(options, mode);
  bus.emit('routing', {
    agent: mode,
    confidence: 1,
    reason: 'Explicit mode selection',
    method: 'explicit',
  });
  if (!chosen || !skills) return runAgent(run, mode);
  const outcome = await stage(bus, 'skill', () => invokeSkillMode(run, chosen));
  return {
    output: outcome.ran ? answerText(outcome.output) : outcome.refusal,
    status: outcome.ran ? 'success' : 'failed',
    complexity: 'simple',
    steps: [],
    revisions: 0,
  };
}

/** The dedicated skill mode `mode` names, when there are skills to run it. */
function skillMode(options: OrchestratorSettings, mode: string): SkillMode | undefined {
  const { skills, skillModes = DEFAULT_SKILL_MODES } = options;
  // Own keys only: a mode such as "constructor" is not a skill mode.
  if (!skills || !Object.hasOwn(skillModes, mode)) return undefined;
  const chosen = skillModes[mode]!;
  const missing = chosen.fallback && skills.has && !skills.has(chosen.skill);
  return missing ? chosen.fallback : chosen;
}

/** Fields of a skill's output that are its answer to a person, in order of preference. */
const ANSWER_FIELDS = ['answer', 'report', 'summary', 'text'] as const;

/**
 * The answer of a dedicated mode from its skill's output: text as is, else
 * the output's answer-like field (a research report, an analysis summary),
 * else where its result is (an app's URL, a written file), else the JSON.
 */
function answerText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (output && typeof output === 'object') {
    const record = output as Record<string, unknown>;
    for (const field of ANSWER_FIELDS) if (typeof record[field] === 'string') return record[field];
    if (typeof record.url === 'string') return `Running at ${record.url}`;
    if (typeof record.file === 'string') return `Wrote ${record.file}`;
  }
  return JSON.stringify(output, null, 2) ?? String(output);
}

/**
 * Runs `agent` of `handoffs` (or continues the one a paused run saved, see
 * {@link pausedAgent}): its approvals go through the run's `approvals`, as
 * those of the orchestrator's own tools do, and its conversation is
 * checkpointed as `main`, so a pause ends the run `interrupted` and a resume
 * continues the agent where it stopped.
 */
export async function runAgent(run: RequestRun, agent: string): Promise<PhaseResult> {
  const { scope, request } = run;
  const { options } = run.parts;
  const handoffs = options.handoffs!;
  const { recorder } = scope;
  const saved = recorder.state.conversations.main;
  // A handoff's task is text: the agent reads the request's text after the history.
  const { text, history } = request;
  const result = await handoffs.run(saved?.agent ?? agent, text, {
    signal: scope.signal,
    emit: scope.bus,
    ...(history.length && { history }),
    ...(saved?.agent && { resume: saved.messages }),
    approvals: options.approvals,
    pauseOnInterrupt: defersApprovals(options),
    onCheckpoint: (name, messages) =>
      recorder.conversation('main', { mode: 'direct', agent: name }, messages),
  });
  // A pause keeps the conversation for the resume; the run records itself paused (pause.ts).
  if (result.result.status === 'interrupted') {
    throw (
      result.result.error ?? new RunError('interrupted', `Agent ${result.agent} waits for a human answer`)
    );
  }
  recorder.endConversation('main');
  return {
    output: result.output,
    status: result.result.status,
    complexity: 'simple',
    steps: [],
    revisions: 0,
    agent: result.agent,
  };
}
