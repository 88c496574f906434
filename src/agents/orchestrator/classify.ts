/**
 * Plan or not: the orchestrator's first decision. The heuristic classifier
 * (no model call), the planner model's `decide`, or the heuristic first and
 * the model only when the heuristic is unsure (the default).
 * @module
 */
import type { Emitter, EventPayloads } from '../../core/events.js';
import type { Planner } from '../planner/index.js';
import { classifyQuery } from '../routing/index.js';
import type { RunScope } from './run-scope.js';
import { stage } from './stage-events.js';

/** How the orchestrator classifies a task. */
export type ClassifyMode =
  | 'auto'
  | 'heuristic'
  | 'llm'
  | ((
      task: string,
      context: { signal: AbortSignal },
    ) => 'simple' | 'complex' | Promise<'simple' | 'complex'>);

/** The decision and the `routing` event that reports it. */
export interface TaskClassification {
  complexity: 'simple' | 'complex';
  routing: EventPayloads['routing'];
}

function routingFor(
  complexity: 'simple' | 'complex',
  method: EventPayloads['routing']['method'],
  confidence: number,
  reason: string,
): TaskClassification {
  return {
    complexity,
    routing: {
      agent: complexity === 'complex' ? 'planner' : 'executor',
      complexity,
      method,
      confidence,
      reason,
    },
  };
}

/** Classifies `task` with `mode`. */
export async function classifyTask(
  task: string,
  mode: ClassifyMode,
  planner: Planner,
  context: { signal: AbortSignal; emit: Emitter },
): Promise<TaskClassification> {
  if (typeof mode === 'function') {
    const complexity = await mode(task, { signal: context.signal });
    return routingFor(complexity, 'default', 1, 'Custom classifier');
  }
  if (mode !== 'llm') {
    const heuristic = classifyQuery(task);
    if (mode === 'heuristic' || heuristic.confident) {
      return routingFor(heuristic.complexity, 'heuristic', heuristic.confident ? 0.9 : 0.6, heuristic.reason);
    }
  }
  const decision = await planner.decide(task, {
    signal: context.signal,
    emit: context.emit.scope({ agent: 'planner' }),
  });
  return routingFor(decision.needsPlan ? 'complex' : 'simple', 'llm', 1, decision.reasoning);
}

/** The classify phase: plan or not, announced as a `routing` event and recorded. */
export async function classifyPhase(
  scope: RunScope,
  task: string,
  mode: ClassifyMode,
  planner: Planner,
): Promise<void> {
  const { bus, recorder, signal } = scope;
  const classification = await stage(bus, 'classifying', () =>
    classifyTask(task, mode, planner, { signal, emit: bus }),
  );
  bus.emit('routing', classification.routing);
  const complexity = classification.complexity;
  await recorder.phase(complexity === 'simple' ? 'executing' : 'planning', {
    complexity,
    routing: classification.routing,
  });
}
