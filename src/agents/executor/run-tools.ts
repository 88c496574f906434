/**
 * Running a turn's tool calls through the tool runner (and its gate), with
 * every settled result of a batch checkpointed; calls a resumed conversation
 * left without results run first. After the turn, the notes the next request
 * carries are set: repetition, and the error-streak recovery hint.
 * @module
 */
import type { Message, ToolMessage } from '../../core/messages.js';
import { type Interruption, interruptionFromView } from '../../safety/approvals/interruption.js';
import { type PreparedCall, prepareToolCalls } from '../../tools/prepare.js';
import type { ToolOutcome } from '../../tools/runner.js';
import { turnErrorNote } from './error-streak.js';
import type { LoopState } from './loop-state.js';
import { callKey, repetitionNote } from './repetition.js';
import { BatchResults, type PendingBatch, pendingBatch } from './tool-results.js';
import { CONTINUE, stopOf, type TurnOutcome } from './turn-outcome.js';

/**
 * A resumed conversation may end with a model turn whose tool calls have no
 * results yet (the run paused for an approval, or stopped mid-tool), or only
 * some (a batch cut short): the calls without a result run first, before
 * the model is asked anything; a recorded result is never run again.
 */
export async function runPendingCalls(loop: LoopState): Promise<TurnOutcome> {
  const pending = pendingBatch(loop.run.messages);
  if (!pending) return CONTINUE;
  const prepared = await prepareToolCalls(loop.deps.registry, pending.calls);
  return runTools(loop, prepared.calls, pending);
}

/**
 * Runs the turn's calls that have no result in `pending.results` and writes
 * the tool message answering them at `pending.at` — what a resumed
 * conversation left (see {@link pendingBatch}); without `pending` the batch
 * is new and its message goes after the conversation. In a batch of several calls, every
 * result is checkpointed as it settles, so neither a crash nor a pause runs
 * it again. Calls whose approval was deferred get no result: the results so
 * far are checkpointed and the turn comes to `interrupted`, with the
 * questions that hold those calls.
 */
export async function runTools(
  loop: LoopState,
  calls: readonly PreparedCall[],
  pending?: Pick<PendingBatch, 'results' | 'at'>,
): Promise<TurnOutcome> {
  const { deps, run } = loop;
  const results = pending?.results ?? new BatchResults(calls.map((c) => c.call.id));
  const at = pending?.at ?? run.messages.length;
  const batch: Batch = { calls, results, at, deferred: [], saving: undefined };
  const onSettled = (outcome: ToolOutcome) => {
    // A call cut by an abort has not settled: it runs again on resume.
    if (run.signal.aborted) return;
    if (outcome.deferred) batch.deferred.push(outcome);
    else if (results.add(outcome) && run.onCheckpoint && calls.length > 1 && !results.complete) {
      // The message is taken now: calls that settle in the same tick must not reach this checkpoint.
      const message = results.message();
      const previous = batch.saving;
      batch.saving = (async () => {
        await previous;
        await loop.run.onCheckpoint?.(checkpointed(loop, message, at));
      })();
      // Awaited once the batch is done; until then a failed save must not count as unhandled.
      batch.saving.catch(() => {});
    }
  };
  const outcomes = await deps.runner.run(
    results.size > 0 ? calls.filter((_, i) => !results.answered(i)) : calls,
    {
      signal: run.signal,
      emit: run.emit,
      runId: run.emit.runId,
      stepId: run.stepId,
      agent: run.agent,
      sandbox: deps.options.sandbox,
      turn: loop.iterations,
      gate: deps.options.gate,
      filterOutput: deps.options.outputFilter,
      deferApprovals: deps.options.deferApprovals,
      waitingForHuman: () => run.wallClock.waitingForHuman(),
      onSettled,
    },
  );
  // Awaited only when there is something to wait for: an `await` of nothing still costs the turn a tick.
  if (batch.saving) await batch.saving;
  return finishBatch(loop, batch, outcomes.length);
}

/** A batch of calls being run: where its message goes and what happened so far. */
interface Batch {
  calls: readonly PreparedCall[];
  results: BatchResults;
  at: number;
  /** The calls whose approval was deferred. */
  deferred: ToolOutcome[];
  /** The checkpoints of results settled so far, in order. */
  saving: Promise<void> | undefined;
}

/**
 * Writes the batch's tool message, checkpoints it and sets the next turn's
 * notes; a batch an abort cut short stops the execution (any other stop
 * due is the next turn's first check).
 */
async function finishBatch(loop: LoopState, batch: Batch, ran: number): Promise<TurnOutcome> {
  const { run } = loop;
  if (run.signal.aborted) return stopOf(loop)!;
  // Writes the tool message, or completes the one a resumed batch recorded.
  if (batch.results.size > 0) run.messages[batch.at] = batch.results.message();
  if (run.onCheckpoint) await run.onCheckpoint(run.messages);
  if (batch.deferred.length > 0) return { kind: 'interrupted', interruptions: interruptions(loop, batch) };
  loop.toolCalls += ran;
  loop.toolTurns++;
  loop.lastOutcomes = batch.results.outcomes();
  noteTurn(loop, batch.calls, loop.lastOutcomes);
  // A stop due now (the wall clock, the budget) is the next turn's first check.
  return CONTINUE;
}

/** The questions the batch's deferred calls wait on. */
function interruptions(loop: LoopState, batch: Batch): Interruption[] {
  const stepId = loop.run.stepId;
  const out: Interruption[] = [];
  for (const outcome of batch.deferred) {
    const held = outcome.interrupt && interruptionFromView(outcome.interrupt, stepId);
    // A gate of your own may defer without a question: the call itself is what waits.
    const { toolCallId: callId, toolName } = outcome;
    const call = batch.calls.find((c) => c.call.id === callId);
    out.push(held || { id: callId, kind: 'approval', toolName, args: call?.args, callId, title: toolName });
  }
  return out;
}

/** The conversation ending with the batch's results so far. */
function checkpointed(loop: LoopState, message: ToolMessage, at: number): Message[] {
  const messages = loop.run.messages.slice(0, at);
  messages.push(message);
  return messages;
}

/**
 * Sets the notes the next request carries: a repetition note naming the
 * repeated call, and after a failing turn its error note
 * ({@link turnErrorNote}; the critical note once the streak is long).
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
  const errors = turnErrorNote(calls, outcomes, loop.errorStreak);
  loop.errorStreak = errors.streak;
  if (errors.note) loop.notes.push(errors.note);
}
