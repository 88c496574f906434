/**
 * An execution on a session: its history loaded from the thread, what it
 * adds appended at each checkpoint and when it settles (whole turns, each
 * message once), its compressor's summaries saved, and the session's
 * failures reported on the result (docs/sessions.md).
 * @module
 */
import { ConfigError } from '../../core/errors.js';
import type { Emitter } from '../../core/events.js';
import type { Message } from '../../core/messages.js';
import type { RunIds } from '../../core/run-input.js';
import type { Clock } from '../../core/seams.js';
import type { Usage } from '../../core/usage.js';
import type { ModelRequest } from '../../model/types.js';
import type { Session, SessionError } from '../../state/session.js';
import {
  DEFAULT_SESSION_HISTORY,
  loadSessionHistory,
  SessionWriter,
  wholeTurnsEnd,
} from '../../state/session-run.js';
import type { ConversationContext } from './option-groups.js';
import type { ExecuteOptions, ExecutorResult } from './options.js';

/** Run options of a run on a session (the Executor's and the Orchestrator's). */
export interface SessionRunOptions {
  /**
   * The conversation thread the run continues: its last `historyLimit`
   * items (and the summary of those before) are the run's history, and
   * what the run adds is appended to it — at each checkpoint and when the
   * run settles, whole turns only. Takes the place of `history` (giving
   * both is a `ConfigError`); `threadId` and `resourceId` default to the
   * session's. Failures: docs/sessions.md.
   */
  session?: Session;
  /** Items of the session loaded as history. Default 50 (the seeds' conversation window). */
  historyLimit?: number;
}

/**
 * `options` with the session's thread and resource as the run's ids.
 * @throws ConfigError for `history` beside `session`, or an invalid `historyLimit`.
 */
export function withSessionIds<O extends SessionRunOptions & RunIds & { history?: Message[] }>(
  options: O,
): O {
  const { session, historyLimit } = options;
  if (!session) return options;
  if (options.history) {
    throw new ConfigError('run: give `history` or `session`, not both: the session is the history');
  }
  if (historyLimit !== undefined && !(Number.isInteger(historyLimit) && historyLimit >= 0)) {
    throw new ConfigError(`run: \`historyLimit\` must be an integer ≥ 0, got ${historyLimit}`);
  }
  const ids: RunIds = { threadId: options.threadId ?? session.id };
  const resourceId = options.resourceId ?? session.resourceId;
  if (resourceId !== undefined) ids.resourceId = resourceId;
  return { ...options, ...ids };
}

/** What an execution on a session needs of its run. */
export interface SessionExecution {
  runId: string;
  clock: Clock;
  emit: Emitter;
  /** The run's input messages. */
  input: readonly Message[];
  usage: Usage;
  /** A resume: the messages of its input before this index are in the session already. */
  resumedFrom?: number;
}

/** Options of an execution, with the writer that appends it to its session. */
export type SessionExecuteOptions = ExecuteOptions & { writer?: SessionWriter };

/**
 * Runs `execute` on `options.session` (without one, just runs it). A session
 * that cannot be loaded fails the run with its `SessionError` before any
 * model call; appends that fail are reported on the result's `session`.
 */
export function executeOnSession(
  options: SessionRunOptions & ExecuteOptions,
  run: SessionExecution,
  execute: (options: SessionExecuteOptions) => Promise<ExecutorResult>,
): Promise<ExecutorResult> {
  // Not an async function: without a session the execution's own promise is the result, with no layer
  // wrapping it for as long as the run waits on its model (bench: memory per waiting run).
  return options.session ? onSession(options, run, execute) : execute(options);
}

/** {@link executeOnSession} with `options.session` set. */
async function onSession(
  options: SessionRunOptions & ExecuteOptions,
  run: SessionExecution,
  execute: (options: SessionExecuteOptions) => Promise<ExecutorResult>,
): Promise<ExecutorResult> {
  const session = options.session!;
  const { runId, clock, emit } = run;
  let writer: SessionWriter;
  let history: Message[] | undefined;
  if (run.resumedFrom !== undefined) {
    writer = new SessionWriter({ session, from: run.resumedFrom, runId, clock, emit });
  } else {
    try {
      const loaded = await loadSessionHistory(session, options.historyLimit ?? DEFAULT_SESSION_HISTORY);
      history = loaded.messages;
      writer = new SessionWriter({ session, ...loaded, from: history.length, runId, clock, emit });
    } catch (error) {
      return notLoaded(run, session.id, error as SessionError);
    }
  }
  const onCheckpoint = async (messages: readonly Message[]) => {
    await writer.write(messages);
    await options.onCheckpoint?.(messages);
  };
  const result = await execute({ ...options, history, onCheckpoint, writer });
  await writer.write(result.messages);
  result.session = await writer.report();
  return result;
}

/** Where a resume of `messages` starts appending: after the whole turns the paused run appended. */
export function resumePoint(messages: readonly Message[]): number {
  return wholeTurnsEnd(messages, 0);
}

/** `context` telling `writer` about each compression, so the summaries it writes are saved. */
export function sessionContext(
  context: ConversationContext | undefined,
  writer: SessionWriter | undefined,
): ConversationContext | undefined {
  if (!context || !writer) return context;
  return {
    ...context,
    prepareRequest: async (request: ModelRequest, info) => {
      const prepared = await context.prepareRequest(request, info);
      if (prepared.messages !== request.messages)
        await writer.compressed(request.messages, prepared.messages);
      return prepared;
    },
  };
}

/** The result of a run whose session could not be loaded: failed with the session's error. */
function notLoaded(run: SessionExecution, threadId: string, error: SessionError): ExecutorResult {
  const messages = run.input.slice();
  return {
    output: '',
    status: 'failed',
    messages,
    newMessages: [],
    usage: { ...run.usage },
    iterations: 0,
    toolCalls: 0,
    finishReason: 'error',
    error,
    session: { threadId, appended: 0, error },
  };
}
