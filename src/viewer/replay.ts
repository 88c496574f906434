/**
 * Replays: a recorded event log (JSON lines, as `for await (const e of run)
 * log.write(JSON.stringify(e) + '\n')` writes it, or a JSON array) and a
 * saved `RunState`, both turned into what the viewer renders.
 *
 * A saved state holds the plan, each step's status, attempts and output, the
 * handoffs, the pending questions, the usage and the answer; it holds no tool
 * calls, streamed text or timings, so a replay from a state shows those
 * sections empty. An event log replays everything.
 * @module
 */
import type { InterruptView, TandemEvent } from '../core/events.js';
import type { StepProgress } from '../state/progress-types.js';
import { initialProgress, type RunProgress } from '../state/progress-types.js';
import type { RunState, StepState } from '../state/run-state.js';
import { ViewerError } from './errors.js';
import { initialViewerState, VIEWER_LIMITS, type ViewerState } from './model.js';

/**
 * The events of a log: JSON lines (blank lines skipped) or one JSON array,
 * sorted by `seq` with repeated `seq`s dropped.
 * @throws ViewerError `invalid_log` naming the first line that is not an event.
 */
export function parseEventLog(text: string): TandemEvent[] {
  const trimmed = text.trim();
  const items: { where: string; value: unknown }[] = [];
  if (trimmed.startsWith('[')) {
    const array = parseJson(trimmed, 'the log');
    if (!Array.isArray(array)) throw new ViewerError('invalid_log', 'The log is not a JSON array of events');
    for (const [i, value] of array.entries()) items.push({ where: `item ${i + 1}`, value });
  } else {
    trimmed.split(/\r?\n/).forEach((line, i) => {
      if (line.trim()) items.push({ where: `line ${i + 1}`, value: parseJson(line, `line ${i + 1}`) });
    });
  }
  const bySeq = new Map<number, TandemEvent>();
  for (const { where, value } of items) {
    if (!isEvent(value)) {
      throw new ViewerError(
        'invalid_log',
        `${where} is not an event (needs string type and runId, numeric seq and at)`,
      );
    }
    if (!bySeq.has(value.seq)) bySeq.set(value.seq, value);
  }
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ViewerError('invalid_log', `${where} is not JSON`);
  }
}

function isEvent(value: unknown): value is TandemEvent {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as Record<string, unknown>;
  return (
    typeof e.type === 'string' &&
    typeof e.runId === 'string' &&
    typeof e.seq === 'number' &&
    typeof e.at === 'number'
  );
}

const MODES = ['normal', 'enhanced', 'takeover'] as const;

/**
 * What the viewer shows of a saved state. The attempt mode of each step
 * follows the escalation ladder (attempt 1 normal, 2 enhanced, 3 takeover).
 * @throws ViewerError `invalid_state` for a value that is not a run state.
 */
export function viewerStateFromRunState(state: RunState): ViewerState {
  if (!isRunState(state)) {
    throw new ViewerError('invalid_state', 'Not a run state: needs runId, task, status, steps and order');
  }
  const at = state.updatedAt;
  const progress: RunProgress = {
    ...initialProgress(),
    runId: state.runId,
    status: state.status === 'completed' ? 'completed' : state.status === 'failed' ? 'failed' : 'running',
    input: state.task,
    usage: { ...state.usage },
    lastSeq: 0,
    updatedAt: at,
    handoffs: state.handoffs.map((h) => ({ ...h, at })),
    interrupts: state.interrupts.map((i: InterruptView) => ({ ...i, at })),
  };
  if (state.routing) progress.routing = { ...state.routing, at };
  if (state.plan) progress.plan = planOf(state);
  if (state.status === 'completed' || state.status === 'failed') {
    progress.endedAt = at;
    if (state.output !== undefined) progress.output = state.output;
    if (state.status === 'failed' && state.error) progress.error = { ...state.error };
    progress.outcome = outcomeOf(state);
  }
  return { ...initialViewerState(), progress };
}

function planOf(state: RunState): RunProgress['plan'] {
  const byId = new Map(state.steps.map((s) => [s.step.id, s]));
  const steps = state.order
    .map((id) => byId.get(id))
    .filter((s): s is StepState => s !== undefined)
    .map(stepOf);
  return {
    title: state.plan?.title ?? '',
    summary: state.plan?.summary ?? '',
    revision: state.revisions,
    steps,
    completed: steps.filter((s) => s.status === 'completed').length,
    total: steps.length,
  };
}

function stepOf(saved: StepState): StepProgress {
  const step: StepProgress = {
    id: saved.step.id,
    description: saved.step.description,
    dependsOn: [...saved.step.dependsOn],
    status: saved.status,
    attempts: saved.attempts,
  };
  const mode = MODES[Math.min(saved.attempts, MODES.length) - 1];
  if (mode) step.mode = mode;
  if (saved.output) step.output = saved.output.slice(0, VIEWER_LIMITS.maxOutputChars);
  if (saved.error) step.error = { kind: 'step_failed', message: saved.error };
  return step;
}

/** `success` when every step of the plan completed (or there was no plan), as the orchestrator judges. */
function outcomeOf(state: RunState): RunProgress['outcome'] {
  if (state.status === 'failed') return 'failed';
  const steps = state.steps.filter((s) => state.order.includes(s.step.id));
  if (steps.every((s) => s.status === 'completed')) return 'success';
  return steps.some((s) => s.status === 'completed') ? 'partial' : 'failed';
}

function isRunState(value: unknown): value is RunState {
  if (typeof value !== 'object' || value === null) return false;
  const s = value as Record<string, unknown>;
  return (
    typeof s.runId === 'string' &&
    typeof s.task === 'string' &&
    typeof s.status === 'string' &&
    Array.isArray(s.steps) &&
    Array.isArray(s.order) &&
    Array.isArray(s.handoffs) &&
    Array.isArray(s.interrupts) &&
    typeof s.usage === 'object' &&
    s.usage !== null
  );
}
