/**
 * Running a turn's tool calls through the tool runner (and its gate), with
 * every settled result of a batch checkpointed; calls a resumed conversation
 * left without results run first. After the turn, the notes the next request
 * carries are set: repetition, and the error-streak recovery hint.
 * @module
 */
import { RunError } from '../../core/errors.js';
import type { ToolMessage } from '../../core/messages.js';
import { classifyToolError } from '../../tools/error-category.js';
import { type PreparedCall, prepareToolCalls } from '../../tools/prepare.js';
import type { ToolOutcome } from '../../tools/runner.js';
import { toolErrorNote } from './error-streak.js';
import type { LoopState } from './loop-state.js';
import { typed } from './outcome.js';
import { callKey, repetitionNote } from './repetition.js';
import { BatchResults, pendingBatch } from './tool-results.js';

/**
 * A resumed conversation may end with a model turn whose tool calls have no
 * results yet (the run paused for an approval, or stopped mid-tool), or only
 * some (a batch cut short): the calls without a result run first, before
 * the model is asked anything; a recorded result is never run again.
 */
export async function runPendingCalls(loop: LoopState): Promise<void> {
  const pending = pendingBatch(loop.run.messages);
  if (!pending) return;
  const prepared = await prepareToolCalls(loop.deps.registry, pending.calls);
  await runTools(loop, prepared.calls, pending.results, pending.at);
}

/**
 * Runs the turn's calls that have no result in `results` and writes the
 * tool message answering them at `at`. In a batch of several calls, every
 * result is checkpointed as it settles, so neither a crash nor a pause runs
 * it again. Calls whose approval was deferred get no result: the results so
 * far are checkpointed and the execution ends with `RunError('interrupted')`.
 */
export async function runTools(
  loop: LoopState,
  calls: readonly PreparedCall[],
  results = new BatchResults(calls.map((c) => c.call.id)),
  at = loop.run.messages.length,
): Promise<undefined> {
  const { deps, run } = loop;
  const deferred: string[] = [];
  let saving: Promise<void> = Promise.resolve();
  const onSettled = (outcome: ToolOutcome) => {
    // A call cut by an abort has not settled: it runs again on resume.
    if (run.signal.aborted) return;
    if (outcome.deferred) deferred.push(outcome.toolName);
    else if (results.add(outcome) && calls.length > 1 && !results.complete) {
      // The message is taken now: calls that settle in the same tick must not reach this checkpoint.
      const message = results.message();
      saving = saving.then(() => checkpointBatch(loop, message, at));
      // Awaited once the batch is done; until then a failed save must not count as unhandled.
      saving.catch(() => {});
    }
  };
  const outcomes = await deps.runner.run(
    calls.filter((_, i) => !results.answered(i)),
    {
      signal: run.signal,
      emit: run.emit,
      runId: run.emit.runId,
      stepId: run.stepId,
      agent: run.agent,
      sandbox: deps.options.sandbox,
      gate: deps.options.gate,
      filterOutput: deps.options.outputFilter,
      deferApprovals: deps.options.deferApprovals,
      onSettled,
    },
  );
  await saving;
  if (run.signal.aborted) throw typed(loop, run.signal.reason);
  // Writes the tool message, or completes the one a resumed batch recorded.
  if (results.size > 0) run.messages[at] = results.message();
  await run.onCheckpoint?.(run.messages);
  if (deferred.length > 0) {
    throw new RunError(
      'interrupted',
      `Paused for approval of ${deferred.join(', ')}; resume with the answers`,
    );
  }
  loop.toolCalls += outcomes.length;
  loop.toolTurns++;
  loop.lastOutcomes = results.outcomes();
  noteTurn(loop, calls, loop.lastOutcomes);
  return undefined;
}

/** Checkpoints the conversation ending with the batch's results so far. */
function checkpointBatch(loop: LoopState, message: ToolMessage, at: number): void | Promise<void> {
  const messages = loop.run.messages.slice(0, at);
  messages.push(message);
  return loop.run.onCheckpoint?.(messages);
}

/**
 * Sets the notes the next request carries: a repetition note naming the
 * repeated call, and after a failing turn the recovery hint for the
 * category of its first failure (the critical note once the streak is long).
 * `outcomes` answers `calls` one to one, in call order.
 */
function noteTurn(loop: LoopState, calls: readonly PreparedCall[], outcomes: readonly ToolOutcome[]): void {
  let key = '';
  let lastName = '';
  for (let i = 0; i < calls.length; i++) {
    const prepared = calls[i]!;
    lastName = prepared.tool?.name ?? prepared.call.name;
    key = callKey(lastName, prepared.args === undefined ? prepared.call.arguments : prepared.args);
    loop.repetition.push(key, outcomes[i]?.content);
  }
  const streak = loop.repetition.streak();
  const args = key.slice(lastName.length + 1);
  const sameResult = loop.repetition.sameResults(streak);
  const repeated = repetitionNote({ toolName: lastName, args, sameResult }, streak);
  if (repeated) loop.notes.push(repeated);
  // The seed's rule: the turn's first failure speaks for the turn.
  const failure = outcomes.find((o) => o.isError);
  loop.errorStreak = failure ? loop.errorStreak + 1 : 0;
  if (failure) loop.notes.push(toolErrorNote(classifyToolError(failure.content), loop.errorStreak));
}
