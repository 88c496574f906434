/**
 * What the viewer shows of one run: the progress the core's reducer folds
 * from events, plus the timing of each model call for the waterfall (tool
 * calls carry their own times in the progress).
 * @module
 */
import type { TandemEvent } from '../core/events.js';
import { reduceProgress } from '../state/progress.js';
import {
  initialProgress,
  type ProgressLimits,
  type RunProgress,
  streamKey,
} from '../state/progress-types.js';

/** One model call as the waterfall draws it. */
export interface ModelCallTiming {
  model: string;
  agent?: string;
  stepId?: string;
  /** The latest of: the agent's or its step's previous activity ending (step start or failure, a tool result, a call), a stage change. */
  startedAt: number;
  /** The `usage` event that closed the call. */
  endedAt: number;
  tokens: number;
}

/** The mark of the last stage change: a call that follows one (verifying, finalizing) starts there. */
const STAGE = '#stage';

/** The browser's live page: the latest frame and action (`browser_stream`, `browser_action`). */
export interface BrowserView {
  frame?: Omit<TandemEvent<'browser_stream'>, 'type' | 'runId' | 'seq' | 'at'>;
  action?: Pick<TandemEvent<'browser_action'>, 'action' | 'url' | 'target' | 'ok'>;
  /**
   * The page's URL as last reported, by a frame or an action, whichever came
   * last: a navigation reports its new URL before the new page's first frame.
   */
  url?: string;
}

/** The state a viewer renders. */
export interface ViewerState {
  progress: RunProgress;
  /** Model calls in order; the oldest leave past {@link VIEWER_LIMITS}' `maxListItems`. */
  modelCalls: ModelCallTiming[];
  /** Per agent and step, per step, and for the last stage change: where the next model call starts. */
  marks: Readonly<Record<string, number>>;
  /** The last event was a text or reasoning delta: a stream is moving. */
  streaming: boolean;
  /** The browser's page, once a browser tool ran. */
  browser?: BrowserView;
}

/**
 * The reducer's limits in the viewer: more of each tool output than the
 * core's default, since the viewer has room to expand it.
 */
export const VIEWER_LIMITS: Readonly<Required<ProgressLimits>> = {
  maxTextChars: 100_000,
  maxOutputChars: 20_000,
  maxListItems: 500,
};

/** The state before any event. */
export function initialViewerState(): ViewerState {
  return { progress: initialProgress(), modelCalls: [], marks: {}, streaming: false };
}

/**
 * Applies one event. Returns `state` itself for an event the progress
 * ignores (a replay after a reconnect, another run's event).
 */
export function applyViewerEvent(
  state: ViewerState,
  event: TandemEvent,
  limits: ProgressLimits = VIEWER_LIMITS,
): ViewerState {
  // The progress keeps no frames (they are large and only the latest matters): the viewer keeps the last.
  if (event.type === 'browser_stream' || event.type === 'browser_action') return withBrowser(state, event);
  const progress = reduceProgress(state.progress, event, limits);
  if (progress === state.progress) return state;
  const streaming = event.type === 'token' || event.type === 'reasoning';
  if (event.type === 'run_started' && progress.runId !== state.progress.runId) {
    return { progress, modelCalls: [], marks: {}, streaming };
  }
  let { modelCalls, marks } = state;
  if (event.type === 'usage') {
    modelCalls = [
      ...modelCalls.slice(-((limits.maxListItems ?? VIEWER_LIMITS.maxListItems) - 1)),
      callOf(event, state),
    ];
  }
  if (event.type === 'stage') marks = { ...marks, [STAGE]: event.at };
  else if (BOUNDARIES.has(event.type)) marks = markActivity(marks, event);
  return { progress, modelCalls, marks, streaming, browser: state.browser };
}

function withBrowser(
  state: ViewerState,
  event: TandemEvent<'browser_stream'> | TandemEvent<'browser_action'>,
): ViewerState {
  if (event.runId !== state.progress.runId || state.progress.endedAt !== undefined) return state;
  if (event.type === 'browser_stream') {
    const { mediaType, data, width, height, url } = event;
    return { ...state, browser: { ...state.browser, frame: { mediaType, data, width, height, url }, url } };
  }
  const { action, url, target, ok } = event;
  return { ...state, browser: { ...state.browser, action: { action, url, target, ok }, url } };
}

/** Events that end a piece of an agent's work: the next model call of the agent, or of the step, starts after them. */
const BOUNDARIES = new Set<TandemEvent['type']>([
  'plan_step_started',
  'plan_step_failed',
  'tool_result',
  'usage',
]);

function markActivity(marks: ViewerState['marks'], event: TandemEvent): ViewerState['marks'] {
  const next = { ...marks, [streamKey(event.agent, event.stepId)]: event.at };
  if (event.stepId !== undefined) next[`@${event.stepId}`] = event.at;
  return next;
}

/** The call a `usage` event closes: it started at the latest mark of its agent, its step or the stage. */
function callOf(event: TandemEvent<'usage'>, state: ViewerState): ModelCallTiming {
  const { marks } = state;
  const since = Math.max(
    marks[streamKey(event.agent, event.stepId)] ?? -1,
    event.stepId === undefined ? -1 : (marks[`@${event.stepId}`] ?? -1),
    marks[STAGE] ?? -1,
  );
  const call: ModelCallTiming = {
    model: event.model,
    startedAt: since >= 0 ? since : (state.progress.startedAt ?? event.at),
    endedAt: event.at,
    tokens: event.usage.inputTokens + event.usage.outputTokens,
  };
  if (event.agent !== undefined) call.agent = event.agent;
  if (event.stepId !== undefined) call.stepId = event.stepId;
  return call;
}

/** The state after `events`, applied in order. */
export function viewerStateOf(events: Iterable<TandemEvent>, limits?: ProgressLimits): ViewerState {
  let state = initialViewerState();
  for (const event of events) state = applyViewerEvent(state, event, limits);
  return state;
}
