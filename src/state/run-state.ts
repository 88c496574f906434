/**
 * `RunState`: a whole orchestration as versioned JSON — plan, step status and
 * results, the conversation of the attempt in progress, handoff history,
 * pending interrupts and usage — so a run can be saved and resumed in
 * another process after an approval, a restart or a crash.
 * @module
 */
import { errorMessage, TandemError } from '../core/errors.js';
import type { EventPayloads, InterruptView, PlanStepView } from '../core/events.js';
import type { MediaPart, Message, TextPart } from '../core/messages.js';
import type { Usage } from '../core/usage.js';
import { issueLines } from '../model/schema.js';
import type { JsonSchema } from '../model/types.js';
import type { InterruptResponse } from '../safety/approvals/interrupts.js';
import { checkJsonSchema } from '../tools/json-schema-check.js';

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
  /** The handoff agent whose conversation it is (a run in an agent's mode, or routed to one). */
  agent?: string;
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
  /** The request as text (images and files as placeholders such as `[image: image/png, 4033 bytes]`). */
  task: string;
  /** The request as the caller gave it, when it was content parts (text, images, files). */
  input?: Array<TextPart | MediaPart>;
  /** The conversation before the request (`history` of `run()`). */
  history?: Message[];
  /** Who the conversation belongs to, as given to `run()`. */
  resourceId?: string;
  /** The conversation the run continues, as given to `run()`. */
  threadId?: string;
  /** The explicit mode the run was started in (`mode` of `run()`): a resume continues in it. */
  mode?: string;
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
  /**
   * Answers to `interrupts` given while the run was stopped, by interrupt id
   * (`state.approve` / `state.reject` write them); `resume(state)` delivers
   * them. Plain JSON, so a state answered and saved in one process resumes
   * in another.
   */
  decisions?: Record<string, InterruptResponse>;
  usage: Usage;
  output?: string;
  /** Why the run failed (status `failed`): the kind and message of the error it ended with. */
  error?: { kind: string; message: string };
  /**
   * Saves of the run so far (absent: 0). A resume claims the run by saving
   * the next revision only if the store still holds this one, so of two
   * resumes of the same state one runs and the other fails with a
   * `CheckpointError` of kind `conflict`.
   */
  revision?: number;
  /** Clock time of the save. */
  updatedAt: number;
}

/** Why a saved state cannot be used. */
export type RunStateErrorKind = 'unsupported_version' | 'invalid_state' | 'not_found' | 'already_resumed';

/** A saved state that cannot be resumed. */
export class RunStateError extends TandemError<RunStateErrorKind> {
  static override readonly brand: string = 'RunStateError';
}

const STRING = { type: 'string' };
const NUMBER = { type: 'number' };
const COUNT = { type: 'integer', minimum: 0 };
const STRINGS = { type: 'array', items: STRING };

/** An object with these required properties (others pass, as saved). */
function object(properties: Record<string, JsonSchema>, optional: readonly string[] = []): JsonSchema {
  const required = Object.keys(properties).filter((key) => !optional.includes(key));
  return { type: 'object', properties, required };
}

const MESSAGE = object({
  role: { enum: ['user', 'assistant', 'tool'] },
  content: { anyOf: [STRING, { type: 'array', items: object({ type: STRING }) }] },
});

/**
 * The shape a saved state must have to be resumed: checked as JSON Schema
 * (synchronously, with no schema library to import). Fields it does not
 * name are kept as saved.
 */
const RUN_STATE_SCHEMA = object(
  {
    version: { const: RUN_STATE_VERSION },
    runId: { type: 'string', minLength: 1 },
    task: STRING,
    input: { type: 'array', items: object({ type: STRING }) },
    history: { type: 'array', items: MESSAGE },
    resourceId: STRING,
    threadId: STRING,
    mode: STRING,
    status: { enum: ['running', 'paused', 'completed', 'failed'] },
    phase: {
      enum: ['classifying', 'executing', 'planning', 'dispatching', 'verifying', 'finalizing', 'done'],
    },
    complexity: { enum: ['simple', 'complex'] },
    plan: object({ title: STRING, summary: STRING, steps: { type: 'array' } }),
    steps: {
      type: 'array',
      items: object({
        step: object({ id: STRING, description: STRING, dependsOn: STRINGS }),
        status: { enum: ['pending', 'running', 'completed', 'failed', 'skipped'] },
        output: STRING,
        attempts: COUNT,
      }),
    },
    order: STRINGS,
    revisions: COUNT,
    conversations: {
      type: 'object',
      additionalProperties: object({
        mode: { enum: ['direct', 'normal', 'enhanced', 'takeover'] },
        messages: { type: 'array', items: MESSAGE },
      }),
    },
    handoffs: { type: 'array', items: object({ from: STRING, to: STRING }) },
    interrupts: { type: 'array', items: object({ id: STRING, kind: STRING }) },
    decisions: { type: 'object', additionalProperties: object({ action: STRING }) },
    usage: object({
      inputTokens: NUMBER,
      outputTokens: NUMBER,
      cachedInputTokens: NUMBER,
      reasoningTokens: NUMBER,
    }),
    error: object({ kind: STRING, message: STRING }),
    revision: COUNT,
    updatedAt: NUMBER,
  },
  [
    'complexity',
    'plan',
    'error',
    'revision',
    'decisions',
    'input',
    'history',
    'resourceId',
    'threadId',
    'mode',
  ],
);

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
  const issues = checkJsonSchema(RUN_STATE_SCHEMA, state);
  if (issues.length > 0) {
    const list = issueLines(issues).join('; ');
    throw new RunStateError('invalid_state', `Invalid run state: ${list}`);
  }
  return ownCopy(state as unknown as RunState);
}

/**
 * A copy the run may change without touching the caller's state. Usage keeps
 * only its token counts, as it always has on resume.
 */
function ownCopy(state: RunState): RunState {
  let copy: RunState;
  try {
    copy = structuredClone(state);
  } catch (error) {
    throw new RunStateError('invalid_state', `Invalid run state: ${errorMessage(error)}`);
  }
  const { inputTokens, outputTokens, cachedInputTokens, reasoningTokens } = copy.usage;
  copy.usage = { inputTokens, outputTokens, cachedInputTokens, reasoningTokens };
  return copy;
}
