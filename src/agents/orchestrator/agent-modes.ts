/**
 * Runs that skip plan-or-not: an explicit mode — a dedicated skill mode (no
 * model turn) or an agent of `handoffs` named by `mode` — or the agent the
 * router picks. The results are not yet finished (output guardrails, the
 * `done` phase): the caller does that.
 * @module
 */
import { ConfigError } from '../../core/errors.js';
import type { Runtime } from '../../core/seams.js';
import { emptyUsage } from '../../core/usage.js';
import {
  DEFAULT_SKILL_MODES,
  type OrchestratorOptions,
  type OrchestratorResult,
  type SkillMode,
} from './options.js';
import type { RunRequest } from './run-request.js';
import type { RunScope } from './run-scope.js';
import { invokeSkillMode } from './skill-mode.js';
import { stage } from './stage-events.js';

/** Whether `mode` names a dedicated skill mode or an agent of `handoffs`. */
export function isMode(options: OrchestratorOptions, mode: string): boolean {
  return !!skillMode(options, mode) || !!options.handoffs?.has(mode);
}

/**
 * Routes with the router, when there is one: the result of the agent it
 * picks, or `undefined` for the default agent (the plan-or-not flow). An
 * explicit mode that names nothing falls through to it (seed 003), and its
 * `routing` event says so; with no router to fall through to, that mode is a
 * configuration error.
 */
export async function routeToAgent(
  scope: RunScope,
  options: OrchestratorOptions,
  request: RunRequest,
  unknownMode?: string,
): Promise<OrchestratorResult | undefined> {
  const { router, handoffs } = options;
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
  return runAgent(scope, options, request, routing.agent);
}

/**
 * An explicit mode (see {@link isMode}): a dedicated skill mode (no model
 * turn; the skill runs through the gate, see `skill-mode.ts`), or a named
 * agent. A refused skill ends the run `failed`, the refusal as its output.
 */
export async function runExplicitMode(
  scope: RunScope,
  options: OrchestratorOptions,
  runtime: Runtime,
  request: RunRequest,
  mode: string,
): Promise<OrchestratorResult> {
  const { bus } = scope;
  const { skills } = options;
  const chosen = skillMode(options, mode);
  bus.emit('routing', {
    agent: mode,
    confidence: 1,
    reason: 'Explicit mode selection',
    method: 'explicit',
  });
  if (!chosen || !skills) return runAgent(scope, options, request, mode);
  const task = request.text;
  const outcome = await stage(bus, 'skill', () => invokeSkillMode(scope, options, runtime, chosen, task));
  return {
    output: outcome.ran ? answerText(outcome.output) : outcome.refusal,
    status: outcome.ran ? 'success' : 'failed',
    complexity: 'simple',
    steps: [],
    revisions: 0,
    usage: emptyUsage(),
  };
}

/** The dedicated skill mode `mode` names, when there are skills to run it. */
function skillMode(options: OrchestratorOptions, mode: string): SkillMode | undefined {
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

async function runAgent(
  scope: RunScope,
  options: OrchestratorOptions,
  request: RunRequest,
  agent: string,
): Promise<OrchestratorResult> {
  const handoffs = options.handoffs!;
  // A handoff's task is text: the agent reads the request's text after the history.
  const { text, history } = request;
  const how = { signal: scope.signal, emit: scope.bus, ...(history.length && { history }) };
  const result = await handoffs.run(agent, text, how);
  return {
    output: result.output,
    status: result.result.status,
    complexity: 'simple',
    steps: [],
    revisions: 0,
    agent: result.agent,
    usage: emptyUsage(),
  };
}
