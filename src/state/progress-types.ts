/**
 * The shape of a run's progress as a UI shows it (the seeds'
 * `ActiveAgentProgress`): what {@link reduceProgress} builds from events.
 * @module
 */
import type {
  ErrorInfo,
  EventPayloads,
  InterruptView,
  PlanStepView,
  StageStatus,
  TandemEvent,
} from '../core/events.js';
import type { MediaSummary } from '../core/media.js';
import { emptyUsage, type Usage } from '../core/usage.js';

/** Where a run is: before its first event, running, or ended by `complete` / `error`. */
export type RunStatus = 'idle' | 'running' | 'completed' | 'failed';

/** When and by whom a pending question was asked. */
export interface EntryMeta {
  at: number;
  agent?: string;
  stepId?: string;
  parentId?: string;
}

/** One stage (`classifying`, `planning`, `executing`, …) as it ran. */
export interface StageProgress {
  name: string;
  status: StageStatus;
  detail?: string;
  agent?: string;
  startedAt: number;
  endedAt?: number;
}

/** A step's status; `retrying` between a failed attempt and the next one. */
export type StepStatus = PlanStepView['status'] | 'retrying';

/** One plan step with what its attempts did. */
export interface StepProgress {
  id: string;
  description: string;
  dependsOn: string[];
  status: StepStatus;
  /** Attempts started so far. */
  attempts: number;
  /** Mode of the current (or last) attempt. */
  mode?: 'normal' | 'enhanced' | 'takeover';
  /** Summary of the output, once completed. */
  output?: string;
  /** The last failure, kept after a successful retry. */
  error?: ErrorInfo;
  startedAt?: number;
  endedAt?: number;
  /** Tokens (and `costUsd`, when the run has prices) of the model calls made for this step, all attempts. */
  usage?: Usage;
}

/** The plan, as last overviewed or revised. */
export interface PlanProgress {
  title: string;
  summary: string;
  /** 0 for the first plan, then the `plan_revised` revision. */
  revision: number;
  steps: StepProgress[];
  /** Completed steps, as the last `plan_step_completed` counted them. */
  completed: number;
  total: number;
}

/** A tool call and, once it has one, its result. */
export interface ToolActivity {
  id: string;
  name: string;
  args: unknown;
  status: 'running' | 'succeeded' | 'failed';
  agent?: string;
  stepId?: string;
  startedAt: number;
  endedAt?: number;
  durationMs?: number;
  isError?: boolean;
  /** The start of the output, at most `maxOutputChars`. */
  output?: string;
  /** Length of the whole output. */
  outputChars?: number;
  /** The model saw a truncated output. */
  truncated?: boolean;
  /** Images and files the tool returned: media types and sizes. */
  attachments?: MediaSummary[];
  /** The call's latest `tool_progress` report, while it runs and after. */
  progress?: { progress?: number; total?: number; message?: string };
  /** The command a sandbox tool runs, with its live output (`terminal_*` events). */
  terminal?: TerminalView;
}

/** A command's terminal as a UI shows it. */
export interface TerminalView {
  command: string;
  language?: string;
  /** The tail of stdout and stderr interleaved as printed, at most `maxTextChars`. */
  output: string;
  /** Characters dropped from the front to respect the cap. */
  droppedChars: number;
  /** True from `terminal_command` until `terminal_complete`. */
  isStreaming: boolean;
  exitCode?: number | null;
  timedOut?: boolean;
}

/** Text and reasoning streamed by one agent in one step. */
export interface TextStream {
  agent?: string;
  stepId?: string;
  /** The tail of the streamed text, at most `maxTextChars`. */
  text: string;
  /** The tail of the streamed reasoning, at most `maxTextChars`. */
  reasoning: string;
  /** Characters of text and reasoning dropped from the front to respect the cap. */
  droppedChars: number;
}

/** A question waiting for a human. */
export type PendingInterrupt = InterruptView & EntryMeta;

/** An event kept in a list: its payload, `at` and tags, without `type`, `runId` and `seq`. */
export type ProgressEntry<T extends keyof EventPayloads> = Omit<TandemEvent<T>, 'type' | 'runId' | 'seq'>;

/** Everything a UI shows about one run. */
export interface RunProgress {
  /** `''` until the first event. */
  runId: string;
  status: RunStatus;
  input?: string;
  /** Every stage in start order (a stage may run more than once). */
  stages: StageProgress[];
  /** The innermost stage still running. */
  currentStage?: string;
  routing?: ProgressEntry<'routing'>;
  plan?: PlanProgress;
  todo?: EventPayloads['todo_update'];
  /** Tool calls in call order; the oldest finished ones leave past `maxListItems`. */
  tools: ToolActivity[];
  /** Streamed text per agent and step, keyed by {@link streamKey}. */
  streams: Record<string, TextStream>;
  /** Key of the stream that received the last delta. */
  activeStream?: string;
  /** The structured answer as last streamed (`partial_object`): not yet validated, complete once the run is. */
  partialObject?: unknown;
  handoffs: ProgressEntry<'handoff'>[];
  /** Questions asked and not answered yet. */
  interrupts: PendingInterrupt[];
  guardrails: ProgressEntry<'guardrail'>[];
  retries: ProgressEntry<'retry'>[];
  fallbacks: ProgressEntry<'fallback'>[];
  compressions: ProgressEntry<'compression'>[];
  sources: ProgressEntry<'source'>[];
  /** Workspace paths tools created or changed (`workspace_update`), most recent last, each once. */
  workspace: string[];
  /** Sum of the `usage` of every `usage` event (with `costUsd` when the run has prices). */
  usage: Usage;
  /** The last `budget` event: pressure reached the warning level, or the run was stopped. */
  budget?: ProgressEntry<'budget'>;
  /** The final answer, from `complete`. */
  output?: string;
  /** How `complete` judged the run. */
  outcome?: EventPayloads['complete']['status'];
  /** Why the run ended in `error`. */
  error?: ErrorInfo;
  /** `seq` of the last event applied; 0 before any. */
  lastSeq: number;
  startedAt?: number;
  updatedAt?: number;
  endedAt?: number;
}

/** Bounds on what the progress keeps. */
export interface ProgressLimits {
  /** Characters of text (and, separately, of reasoning) kept per stream, tail first. Default 100 000. */
  maxTextChars?: number;
  /** Characters kept of each tool output and step output. Default 2 000. */
  maxOutputChars?: number;
  /** Entries kept per list (tools, retries, guardrails, …), newest first. Default 200. */
  maxListItems?: number;
}

/** The default {@link ProgressLimits}. */
export const DEFAULT_PROGRESS_LIMITS: Readonly<Required<ProgressLimits>> = {
  maxTextChars: 100_000,
  maxOutputChars: 2_000,
  maxListItems: 200,
};

/** The progress before any event. */
export function initialProgress(): RunProgress {
  return {
    runId: '',
    status: 'idle',
    stages: [],
    tools: [],
    streams: {},
    handoffs: [],
    interrupts: [],
    guardrails: [],
    retries: [],
    fallbacks: [],
    compressions: [],
    sources: [],
    workspace: [],
    usage: emptyUsage(),
    lastSeq: 0,
  };
}

/** Key of the text stream of `agent` in `stepId`: `agent@step`, `agent`, or `run` when untagged. */
export function streamKey(agent: string | undefined, stepId: string | undefined): string {
  const who = agent ?? 'run';
  return stepId === undefined ? who : `${who}@${stepId}`;
}
