/**
 * Plan or not: the orchestrator's first decision. The heuristic classifier
 * (no model call), the planner model's `decide`, or the heuristic first and
 * the model only when the heuristic is unsure (the default).
 * @module
 */
import type { Emitter, EventPayloads } from '../core/events.js';
import { classifyQuery } from './classifier.js';
import type { Planner } from './planner.js';

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
