/**
 * Handling the model's reply: tool calls are checked (unknown tools, bad
 * JSON) and run; text is the answer, or is continued when the length limit
 * cut it; an empty reply falls back on what the execution already has, or
 * is asked again.
 * @module
 */
import { ModelError, RunError } from '../../core/errors.js';
import type { AssistantMessage, ToolCallPart } from '../../core/messages.js';
import type { ModelResponse } from '../../model/types.js';
import { type PreparedTurn, prepareToolCalls } from '../../tools/prepare.js';
import { answer } from './answer.js';
import { continueCutReply, rollBack } from './length-limit.js';
import type { LoopState } from './loop-state.js';
import { MAX_EMPTY_REPLY_RETRIES, MAX_INVALID_JSON_RETRIES } from './options.js';
import { result } from './outcome.js';
import { runTools } from './run-tools.js';
import { toolOnlyOutput } from './tool-results.js';
import { CONTINUE, stopOf, type TurnOutcome } from './turn-outcome.js';

/** Acts on one reply: what the turn comes to (the answer, a stop, or go on). */
export async function handleReply(loop: LoopState, response: ModelResponse): Promise<TurnOutcome> {
  loop.finishReason = response.finishReason;
  const message = response.message;
  let calls: ToolCallPart[] | undefined;
  let text = '';
  for (const part of message.content) {
    if (part.type === 'tool_call') (calls ??= []).push(part);
    else if (part.type === 'text') text += part.text;
  }
  if (calls) return response.finishReason === 'length' ? rollBack(loop) : actOn(loop, message, calls);
  if (text.trim() === '') return onEmpty(loop, response);
  loop.emptyReplies = 0;
  accept(loop, message);
  if (response.finishReason === 'length') return continueCutReply(loop, text);
  return answer(loop, loop.pendingText + text);
}

/** A reply with neither text nor tool calls. */
function onEmpty(loop: LoopState, response: ModelResponse): TurnOutcome | Promise<TurnOutcome> {
  if (loop.pendingText) {
    loop.iterations++;
    return answer(loop, loop.pendingText);
  }
  if (loop.retriedAnswer !== undefined) {
    loop.iterations++;
    return { kind: 'answer', result: result(loop, loop.retriedAnswer, 'success') };
  }
  if (loop.lastOutcomes) {
    loop.iterations++;
    return answer(loop, toolOnlyOutput(loop.lastOutcomes));
  }
  const model = loop.deps.invoker.id;
  if (response.finishReason === 'content_filter') {
    const cause = new ModelError('content_filter', `${model}: reply blocked by the content filter`);
    throw new RunError('model', cause.message, { cause });
  }
  if (loop.emptyReplies < MAX_EMPTY_REPLY_RETRIES) {
    loop.emptyReplies++;
    return CONTINUE;
  }
  const cause = new ModelError(
    'empty_response',
    `${model}: empty reply (no text, no tool calls) after ${loop.emptyReplies + 1} attempts`,
  );
  throw new RunError('model', cause.message, { cause });
}

/**
 * A reply with tool calls: unknown tools count toward `maxInvalidToolTurns`,
 * arguments that are not a JSON object are asked again a few times (the
 * turn is not kept, its calls' events are); a run whose budget the reply
 * (or its calls) spent stops here; the turn is then kept, checkpointed, and
 * its calls run.
 */
async function actOn(
  loop: LoopState,
  message: AssistantMessage,
  calls: ToolCallPart[],
): Promise<TurnOutcome> {
  const { deps, run } = loop;
  const turn = await prepareToolCalls(deps.registry, calls);
  if (turn.unknownTool) {
    if (++loop.invalidToolTurns >= deps.limits.maxInvalidToolTurns) {
      const names = turn.calls.filter((c) => c.status === 'unknown_tool').map((c) => c.call.name);
      throw new RunError(
        'invalid_tool_calls',
        `The model called unknown tool(s) ${names.join(', ')} in ${loop.invalidToolTurns} consecutive turns`,
      );
    }
  } else {
    loop.invalidToolTurns = 0;
    if (turn.invalidJson && loop.invalidJsonRetries < MAX_INVALID_JSON_RETRIES) {
      loop.invalidJsonRetries++;
      await reportReask(loop, turn);
      return CONTINUE;
    }
    loop.invalidJsonRetries = 0;
  }
  // The calls count before they run: the one that reaches a limit does not.
  run.budget?.countToolCalls(turn.calls.length);
  const stop = stopOf(loop);
  if (stop) return stop;
  loop.emptyReplies = 0;
  loop.pendingText = '';
  loop.continuations = 0;
  accept(loop, message);
  if (run.onCheckpoint) await run.onCheckpoint(run.messages);
  return runTools(loop, turn.calls);
}

/**
 * A turn asked again is not kept, but its calls are not silent either: each
 * gets the `tool_call` and error `tool_result` it would have had if kept, so
 * a UI or log shows what the model sent. None of them is ready, so the runner
 * runs nothing and answers at once.
 */
async function reportReask(loop: LoopState, turn: PreparedTurn): Promise<void> {
  const { run } = loop;
  await loop.deps.runner.run(turn.calls, {
    signal: run.signal,
    emit: run.emit,
    runId: run.emit.runId,
    stepId: run.stepId,
    agent: run.agent,
  });
}

/** Appends an accepted model turn; the notes it was sent with are spent. */
function accept(loop: LoopState, message: AssistantMessage): void {
  loop.run.messages.push(message);
  loop.iterations++;
  if (loop.notes.length > 0) loop.notes = [];
}
