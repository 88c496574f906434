/**
 * Plan or not: the orchestrator's first decision. The heuristic classifier
 * (no model call, reading the request's text), the planner model's `decide`
 * (reading the conversation and the request with its images and files), or
 * the heuristic first and the model only when the heuristic is unsure (the
 * default).
 * @module
 */
import type { Emitter, EventPayloads } from '../../core/events.js';
import type { Message } from '../../core/messages.js';
import { type UserContent, wordsOf } from '../../core/run-input.js';
import type { Planner } from '../planner/index.js';
import { classifyQuery } from '../routing/index.js';
import type { ClassifyMode } from './option-groups.js';
import type { RunRequest } from './run-request.js';
import type { RunScope } from './run-scope.js';
import { stage } from './stage-events.js';

/** The decision and the `routing` event that reports it. */
export interface TaskClassification {
  complexity: 'simple' | 'complex';
  routing: EventPayloads['routing'];
}

/** How a decision was made: the `routing` event's fields other than the agent and the complexity. */
type Decided = Pick<EventPayloads['routing'], 'method' | 'confidence' | 'reason'>;

/** A classifier: its mode, and the planner whose `decide` it asks when the mode calls for the model. */
export interface Classifier {
  mode: ClassifyMode;
  planner: Planner;
}

function routingFor(
  complexity: 'simple' | 'complex',
  { method, confidence, reason }: Decided,
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

/**
 * Classifies `task` (the request's text) with the classifier's `mode`; `context.input` (the
 * request as given, default `task`) and `context.history` are what a
 * classifier function and the planner's `decide` see.
 */
export async function classifyTask(
  task: string,
  { mode, planner }: Classifier,
  context: { signal: AbortSignal; emit: Emitter; input?: UserContent; history?: readonly Message[] },
): Promise<TaskClassification> {
  const input = context.input ?? task;
  const history = context.history ?? [];
  if (typeof mode === 'function') {
    const complexity = await mode(task, { signal: context.signal, input, history });
    return routingFor(complexity, { method: 'default', confidence: 1, reason: 'Custom classifier' });
  }
  if (mode !== 'llm') {
    // The user's words alone: placeholders of images and files would count as words.
    const heuristic = classifyQuery(context.input === undefined ? task : wordsOf(context.input));
    if (mode === 'heuristic' || heuristic.confident) {
      const confidence = heuristic.confident ? 0.9 : 0.6;
      return routingFor(heuristic.complexity, { method: 'heuristic', confidence, reason: heuristic.reason });
    }
  }
  const decision = await planner.decide(input, {
    signal: context.signal,
    history,
    emit: context.emit.scope({ agent: 'planner' }),
  });
  const decided: Decided = { method: 'llm', confidence: 1, reason: decision.reasoning };
  return routingFor(decision.needsPlan ? 'complex' : 'simple', decided);
}

/** The classify phase: plan or not, announced as a `routing` event and recorded. */
export async function classifyPhase(
  scope: RunScope,
  request: RunRequest,
  classifier: Classifier,
): Promise<void> {
  const { bus, recorder, signal } = scope;
  const { text, content: input, history } = request;
  const classification = await stage(bus, 'classifying', () =>
    classifyTask(text, classifier, { signal, emit: bus, input, history }),
  );
  bus.emit('routing', classification.routing);
  const complexity = classification.complexity;
  await recorder.phase(complexity === 'simple' ? 'executing' : 'planning', {
    complexity,
    routing: classification.routing,
  });
}
