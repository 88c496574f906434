/**
 * `reduceProgress`: folds one event into a {@link RunProgress}.
 *
 * Pure and cheap enough to run on every token: it copies only the branch an
 * event touches and shares the rest with the previous state (after a `token`
 * event `next.plan === prev.plan`), so UIs can memoise by identity. Events
 * with a `seq` at or below the last one applied are ignored, which makes
 * replays after an SSE reconnect harmless.
 * @module
 */
import type { EventPayloads, PlanStepView, TandemEvent } from '../core/events.js';
import { isTerminalEvent } from '../core/events.js';
import { addUsage, emptyUsage, type Usage } from '../core/usage.js';
import { applyTerminal, touchPaths } from './progress-terminal.js';
import {
  DEFAULT_PROGRESS_LIMITS,
  type EntryMeta,
  initialProgress,
  type PlanProgress,
  type ProgressEntry,
  type ProgressLimits,
  type RunProgress,
  type StageProgress,
  type StepProgress,
  type StepStatus,
  streamKey,
  type TextStream,
  type ToolActivity,
} from './progress-types.js';

/**
 * Applies one event. Returns `state` itself when the event is a replay
 * (`seq` ≤ `lastSeq`) or belongs to another run, except that a `run_started`
 * of another run starts over from {@link initialProgress}.
 */
export function reduceProgress(state: RunProgress, event: TandemEvent, limits?: ProgressLimits): RunProgress {
  if (state.runId !== '' && event.runId !== state.runId) {
    if (event.type !== 'run_started') return state;
    state = initialProgress();
  } else if (event.seq <= state.lastSeq) {
    return state;
  }
  const next: RunProgress = { ...state, runId: event.runId, lastSeq: event.seq, updatedAt: event.at };
  if (state.status === 'idle') {
    next.status = 'running';
    next.startedAt = event.at;
  }
  apply(next, event, { ...DEFAULT_PROGRESS_LIMITS, ...limits });
  if (isTerminalEvent(event)) {
    next.endedAt = event.at;
    next.currentStage = undefined;
  }
  return next;
}

/**
 * Sets on `next` (a shallow copy of the previous state) what `event` changes.
 * Each case reads a field of `next` before replacing it, so it reads the
 * previous value: `next` only differs in `runId`, `lastSeq`, `updatedAt`,
 * `status` and `startedAt`, which no case reads.
 */
function apply(next: RunProgress, event: TandemEvent, limits: Required<ProgressLimits>): void {
  const prev: Readonly<RunProgress> = next;
  const max = limits.maxListItems;
  switch (event.type) {
    case 'run_started':
      next.input = event.input;
      return;
    case 'stage':
      next.stages = applyStage(prev.stages, event);
      next.currentStage = next.stages[findLast(next.stages, (s) => s.status === 'running')]?.name;
      return;
    case 'routing':
      next.routing = entry(event);
      return;
    case 'plan_overview':
      next.plan = planOf({ title: event.title, summary: event.summary, revision: 0 }, event.steps, undefined);
      return;
    case 'plan_revised':
      next.plan = planOf(
        { title: prev.plan?.title ?? '', summary: prev.plan?.summary ?? '', revision: event.revision },
        event.steps,
        prev.plan,
      );
      return;
    case 'plan_step_started':
      next.plan = updateStep(prev.plan, { id: event.stepId ?? event.step.id, view: event.step }, (s) => ({
        ...s,
        status: 'running',
        attempts: event.attempt,
        mode: event.mode,
        startedAt: s.startedAt ?? event.at,
        endedAt: undefined,
      }));
      return;
    case 'plan_step_completed': {
      const output = clip(event.output, limits.maxOutputChars);
      const plan = updateStep(prev.plan, { id: event.stepId }, (s) => ({
        ...s,
        status: 'completed',
        output,
        endedAt: event.at,
      }));
      next.plan = plan && { ...plan, completed: event.completed, total: event.total };
      return;
    }
    case 'plan_step_failed': {
      const status: StepStatus = event.skipped ? 'skipped' : event.willRetry ? 'retrying' : 'failed';
      const endedAt = event.willRetry ? undefined : event.at;
      next.plan = updateStep(prev.plan, { id: event.stepId }, (s) => ({
        ...s,
        status,
        error: event.error,
        endedAt,
      }));
      return;
    }
    case 'todo_update':
      next.todo = { content: event.content, checked: event.checked, total: event.total };
      return;
    case 'token':
    case 'reasoning':
      appendDelta(next, event, limits.maxTextChars);
      return;
    case 'partial_object':
      next.partialObject = event.object;
      return;
    case 'tool_call':
      next.tools = pushTool(prev.tools, startTool(event, event.args), max);
      return;
    case 'tool_result':
      next.tools = applyToolResult(prev.tools, event, limits);
      return;
    case 'tool_progress':
      next.tools = applyToolProgress(prev.tools, event);
      return;
    case 'terminal_command':
    case 'terminal_output':
    case 'terminal_error':
    case 'terminal_complete':
      next.tools = applyTerminal(prev.tools, event, limits.maxTextChars);
      return;
    case 'workspace_update':
      next.workspace = touchPaths(prev.workspace, event.paths, max);
      return;
    case 'interrupt':
      next.interrupts = [...prev.interrupts, { ...event.interrupt, ...tagsOf(event), at: event.at }];
      return;
    case 'interrupt_response':
      next.interrupts = prev.interrupts.filter((i) => i.id !== event.interruptId);
      return;
    case 'handoff':
      next.handoffs = push(prev.handoffs, entry(event), max);
      return;
    case 'guardrail':
      next.guardrails = push(prev.guardrails, entry(event), max);
      return;
    case 'retry':
      next.retries = push(prev.retries, entry(event), max);
      return;
    case 'fallback':
      next.fallbacks = push(prev.fallbacks, entry(event), max);
      return;
    case 'compression':
      next.compressions = push(prev.compressions, entry(event), max);
      return;
    case 'source':
      next.sources = push(prev.sources, entry(event), max);
      return;
    case 'usage':
      next.usage = sumUsage(prev.usage, event.usage);
      // Only a step of the plan: usage of a call outside it must not add a phantom step.
      if (event.stepId && prev.plan?.steps.some((s) => s.id === event.stepId)) {
        next.plan = updateStep(prev.plan, { id: event.stepId }, (s) => ({
          ...s,
          usage: sumUsage(s.usage ?? emptyUsage(), event.usage),
        }));
      }
      return;
    case 'budget':
      next.budget = entry(event);
      return;
    case 'complete':
      // A failed run resolves with its result too (docs/results.md): it shows as failed, with why.
      next.status = event.status === 'failed' ? 'failed' : 'completed';
      if (event.status !== 'failed' || event.output) next.output = event.output;
      next.outcome = event.status;
      if (event.error) next.error = event.error;
      return;
    case 'error':
      next.status = 'failed';
      next.error = event.error;
      return;
    default:
      // skill_output, parallel_start, parallel_complete: nothing a progress view shows beyond `lastSeq`.
      return;
  }
}

function entry<T extends keyof EventPayloads>(event: TandemEvent<T>): ProgressEntry<T> {
  const { type: _type, runId: _runId, seq: _seq, ...rest } = event as TandemEvent;
  return rest as unknown as ProgressEntry<T>;
}

function tagsOf(event: TandemEvent): Omit<EntryMeta, 'at'> {
  const tags: Omit<EntryMeta, 'at'> = {};
  if (event.agent !== undefined) tags.agent = event.agent;
  if (event.stepId !== undefined) tags.stepId = event.stepId;
  if (event.parentId !== undefined) tags.parentId = event.parentId;
  return tags;
}

function push<T>(list: readonly T[], item: T, max: number): T[] {
  return list.length < max ? [...list, item] : [...list.slice(list.length - max + 1), item];
}

/** Appends a tool; past `max`, the oldest finished one leaves (a running one never does). */
function pushTool(tools: readonly ToolActivity[], tool: ToolActivity, max: number): ToolActivity[] {
  const out = [...tools, tool];
  if (out.length > max) {
    const i = out.findIndex((t) => t.status !== 'running');
    if (i >= 0) out.splice(i, 1);
  }
  return out;
}

function findLast<T>(list: readonly T[], test: (t: T) => boolean): number {
  for (let i = list.length - 1; i >= 0; i--) if (test(list[i]!)) return i;
  return -1;
}

function replaceAt<T>(list: readonly T[], i: number, item: T): T[] {
  const out = list.slice();
  out[i] = item;
  return out;
}

function clip(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) : text;
}

function sumUsage(a: Usage, b: Partial<Usage>): Usage {
  return addUsage({ ...a }, b);
}

/** Opens a stage, or updates / closes the open one of the same name and agent (a close with none open is kept too). */
function applyStage(stages: StageProgress[], event: TandemEvent<'stage'>): StageProgress[] {
  const i = findLast(
    stages,
    (s) => s.status === 'running' && s.name === event.name && s.agent === event.agent,
  );
  const stage: StageProgress =
    i >= 0
      ? { ...stages[i]!, status: event.status }
      : { name: event.name, status: event.status, startedAt: event.at };
  if (event.agent !== undefined) stage.agent = event.agent;
  if (event.detail !== undefined) stage.detail = event.detail;
  if (event.status !== 'running') stage.endedAt = event.at;
  return i >= 0 ? replaceAt(stages, i, stage) : [...stages, stage];
}

/** Steps from a plan's views; a step already known keeps its attempts, output and error. */
function planOf(
  header: Pick<PlanProgress, 'title' | 'summary' | 'revision'>,
  views: PlanStepView[],
  previous: PlanProgress | undefined,
): PlanProgress {
  const { title, summary, revision } = header;
  const known = new Map(previous?.steps.map((s) => [s.id, s]));
  const steps = views.map((v) => stepOf(v, known.get(v.id)));
  const completed = steps.filter((s) => s.status === 'completed').length;
  return { title, summary, revision, steps, completed, total: steps.length };
}

function stepOf(view: PlanStepView, known?: StepProgress): StepProgress {
  const { id, description, dependsOn, status } = view;
  return known
    ? { ...known, description, dependsOn, status }
    : { id, description, dependsOn, status, attempts: 0 };
}

/** A plan step an event names: its id, and its view when the event carries one. */
interface StepRef {
  readonly id: string | undefined;
  readonly view?: PlanStepView;
}

/** The plan with step `ref.id` changed; a step it lacks (a UI that joined late) is added from `ref.view`. */
function updateStep(
  plan: PlanProgress | undefined,
  ref: StepRef,
  change: (step: StepProgress) => StepProgress,
): PlanProgress | undefined {
  const { id, view } = ref;
  if (id === undefined) return plan;
  const base = plan ?? { title: '', summary: '', revision: 0, steps: [], completed: 0, total: 0 };
  const i = base.steps.findIndex((s) => s.id === id);
  if (i >= 0) return { ...base, steps: replaceAt(base.steps, i, change(base.steps[i]!)) };
  const step = change(stepOf(view ?? { id, description: '', dependsOn: [], status: 'pending' }));
  return { ...base, steps: [...base.steps, step], total: Math.max(base.total, base.steps.length + 1) };
}

function startTool(
  event: TandemEvent<'tool_call'> | TandemEvent<'tool_result'>,
  args: unknown,
): ToolActivity {
  return { ...tagsOf(event), id: event.id, name: event.name, args, status: 'running', startedAt: event.at };
}

function applyToolResult(
  tools: ToolActivity[],
  event: TandemEvent<'tool_result'>,
  limits: Required<ProgressLimits>,
): ToolActivity[] {
  const i = findLast(tools, (t) => t.id === event.id);
  const call = tools[i] ?? startTool(event, undefined);
  const done: ToolActivity = {
    ...call,
    status: event.isError ? 'failed' : 'succeeded',
    endedAt: event.at,
    durationMs: event.durationMs,
    isError: event.isError,
    output: clip(event.output, limits.maxOutputChars),
    outputChars: event.output.length,
  };
  if (event.truncated !== undefined) done.truncated = event.truncated;
  if (event.attachments) done.attachments = event.attachments;
  return i >= 0 ? replaceAt(tools, i, done) : pushTool(tools, done, limits.maxListItems);
}

/** Keeps a running call's latest report; a report for a call the list no longer holds is dropped. */
function applyToolProgress(tools: ToolActivity[], event: TandemEvent<'tool_progress'>): ToolActivity[] {
  const i = findLast(tools, (t) => t.id === event.id);
  if (i < 0) return tools;
  const report: NonNullable<ToolActivity['progress']> = {};
  if (event.progress !== undefined) report.progress = event.progress;
  if (event.total !== undefined) report.total = event.total;
  if (event.message !== undefined) report.message = event.message;
  return replaceAt(tools, i, { ...tools[i]!, progress: report });
}

/**
 * Appends a token or reasoning delta to its stream. Past the cap the oldest
 * quarter goes at once, so trimming costs amortised O(1) per character rather
 * than a copy of the whole tail on every token.
 */
function appendDelta(
  next: RunProgress,
  event: TandemEvent<'token'> | TandemEvent<'reasoning'>,
  max: number,
): void {
  const streams = next.streams;
  const key = streamKey(event.agent, event.stepId);
  const stream: TextStream = { ...(streams[key] ?? emptyStream(event)) };
  const field = event.type === 'token' ? 'text' : 'reasoning';
  let text = stream[field] + event.delta;
  if (text.length > max) {
    const keep = Math.floor((max * 3) / 4);
    stream.droppedChars += text.length - keep;
    text = text.slice(text.length - keep);
  }
  stream[field] = text;
  next.streams = { ...streams, [key]: stream };
  next.activeStream = key;
}

function emptyStream(event: TandemEvent): TextStream {
  const stream: TextStream = { text: '', reasoning: '', droppedChars: 0 };
  if (event.agent !== undefined) stream.agent = event.agent;
  if (event.stepId !== undefined) stream.stepId = event.stepId;
  return stream;
}
