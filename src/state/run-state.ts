/**
 * `RunState`: a whole orchestration as versioned JSON — plan, step status and
 * results, the conversation of the attempt in progress, handoff history,
 * pending interrupts and usage — so a run can be saved and resumed in
 * another process after an approval, a restart or a crash.
 * @module
 */
import { z } from 'zod/v4';
import { TandemError } from '../core/errors.js';
import type { EventPayloads, InterruptView, PlanStepView } from '../core/events.js';
import type { Message } from '../core/messages.js';
import type { Usage } from '../core/usage.js';

/** The schema version this release writes. */
export const RUN_STATE_VERSION = 1;

/** Where a run was when its state was saved. */
export type RunPhase =
  | 'classifying'
  | 'executing'
  | 'planning'
  | 'dispatching'
  | 'verifying'
  | 'finalizing'
  | 'done';

/** A plan step's definition as saved (the planner's plan step: id, description, dependsOn, tools, …). */
export interface SavedStep {
  id: string;
  description: string;
  dependsOn: string[];
  [field: string]: unknown;
}

/** A step's record. */
export interface StepState {
  step: SavedStep;
  status: PlanStepView['status'];
  output: string;
  error?: string;
  attempts: number;
}

/** The conversation of an attempt in progress: enough to continue it without repeating its tool calls. */
export interface ConversationState {
  /** `normal`, `enhanced` or `takeover` for plan steps; `direct` for a simple run. */
  mode: 'direct' | 'normal' | 'enhanced' | 'takeover';
  /** The system prompt the attempt runs with (enhanced instructions included). */
  system?: string;
  messages: Message[];
}

/** A handoff between agents, as recorded. */
export interface HandoffState {
  from: string;
  to: string;
  task: string;
  accepted: boolean;
  reason?: string;
}

/** A saved orchestration. Plain JSON. */
export interface RunState {
  version: typeof RUN_STATE_VERSION;
  runId: string;
  task: string;
  /** `paused`: stopped at an interrupt; resume with the answers. */
  status: 'running' | 'paused' | 'completed' | 'failed';
  phase: RunPhase;
  complexity?: 'simple' | 'complex';
  routing?: EventPayloads['routing'];
  /** The current plan (after revisions), as the planner wrote it. */
  plan?: { title: string; summary: string; steps: unknown[]; fallbackReason?: string };
  /** Every step known to the run, including completed steps of earlier revisions. */
  steps: StepState[];
  /** Ids of the current plan's steps, in plan order (a subset of `steps`). */
  order: string[];
  revisions: number;
  verification?: { verdict: string; reason: string };
  /** In-progress conversations by step id (`main` for a simple run). */
  conversations: Record<string, ConversationState>;
  handoffs: HandoffState[];
  /** Questions to a human still unanswered when the state was saved. */
  interrupts: InterruptView[];
  /** "Approve always" scopes granted in the run's session. */
  approvedScopes?: string[];
  usage: Usage;
  output?: string;
  /** Clock time of the save. */
  updatedAt: number;
}

/** Why a saved state cannot be used. */
export type RunStateErrorKind = 'unsupported_version' | 'invalid_state' | 'not_found';

/** A saved state that cannot be resumed. */
export class RunStateError extends TandemError<RunStateErrorKind> {
  static override readonly brand: string = 'RunStateError';
}

const usageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cachedInputTokens: z.number(),
  reasoningTokens: z.number(),
});

const messageSchema = z.looseObject({
  role: z.enum(['user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]),
});

const runStateSchema = z.looseObject({
  version: z.literal(RUN_STATE_VERSION),
  runId: z.string().min(1),
  task: z.string(),
  status: z.enum(['running', 'paused', 'completed', 'failed']),
  phase: z.enum(['classifying', 'executing', 'planning', 'dispatching', 'verifying', 'finalizing', 'done']),
  complexity: z.enum(['simple', 'complex']).optional(),
  plan: z.looseObject({ title: z.string(), summary: z.string(), steps: z.array(z.unknown()) }).optional(),
  steps: z.array(
    z.looseObject({
      step: z.looseObject({ id: z.string(), description: z.string(), dependsOn: z.array(z.string()) }),
      status: z.enum(['pending', 'running', 'completed', 'failed', 'skipped']),
      output: z.string(),
      attempts: z.number().int().min(0),
    }),
  ),
  order: z.array(z.string()),
  revisions: z.number().int().min(0),
  conversations: z.record(
    z.string(),
    z.looseObject({
      mode: z.enum(['direct', 'normal', 'enhanced', 'takeover']),
      messages: z.array(messageSchema),
    }),
  ),
  handoffs: z.array(z.looseObject({ from: z.string(), to: z.string() })),
  interrupts: z.array(z.looseObject({ id: z.string(), kind: z.string() })),
  usage: usageSchema,
  updatedAt: z.number(),
});

/**
 * Older schema versions and how each becomes the next. Empty while version 1
 * is the only one; a version-2 release adds `1: (s) => ...` here and keeps a
 * fixture of every version in its tests.
 */
const MIGRATIONS: Readonly<Record<number, (state: Record<string, unknown>) => Record<string, unknown>>> = {};

/**
 * Reads saved state of any known version: migrates older versions, validates
 * the result.
 * @throws RunStateError `unsupported_version` (newer than this release, or no
 *   migration) or `invalid_state` (not a run state).
 */
export function parseRunState(value: unknown): RunState {
  if (typeof value !== 'object' || value === null) {
    throw new RunStateError('invalid_state', 'Run state must be a JSON object');
  }
  let state = value as Record<string, unknown>;
  const version = state.version;
  if (typeof version !== 'number' || !Number.isInteger(version)) {
    throw new RunStateError('invalid_state', 'Run state has no numeric "version"');
  }
  if (version > RUN_STATE_VERSION) {
    throw new RunStateError(
      'unsupported_version',
      `Run state version ${version} is newer than this release supports (${RUN_STATE_VERSION}); upgrade tandem-agents`,
    );
  }
  for (let v = version; v < RUN_STATE_VERSION; v++) {
    const migrate = MIGRATIONS[v];
    if (!migrate) {
      throw new RunStateError(
        'unsupported_version',
        `Run state version ${v} cannot be migrated to ${RUN_STATE_VERSION}`,
      );
    }
    state = migrate(state);
  }
  const parsed = runStateSchema.safeParse(state);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new RunStateError('invalid_state', `Invalid run state: ${issues}`);
  }
  return parsed.data as unknown as RunState;
}
