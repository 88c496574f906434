/**
 * `PausedState`: the saved state of a run that ended `interrupted`, with the
 * methods that answer its tool-call approvals and its questions. The answers are written into the
 * state itself (`decisions`), never kept in a closure, so the state can be
 * answered in one process, saved as JSON, and resumed in another:
 *
 * ```ts sketch
 * const result = await orchestrator.run('Refund order 42').result;
 * if (result.status === 'interrupted') {
 *   for (const i of result.interruptions) result.state.approve(i.id);
 *   await orchestrator.resume(result.state).result; // or JSON.stringify it and resume later
 * }
 * ```
 * @module
 */

import { type Interruption, interruptionFromView } from '../safety/approvals/interruption.js';
import { InterruptError, type InterruptResponse } from '../safety/approvals/interrupts.js';
import { parseRunState, type RunState, RunStateError } from './run-state.js';

/** The paused states a resume has taken in this process. */
const resumed = new WeakSet<PausedState>();

/**
 * Takes `saved` for a resume when it is a {@link PausedState}: a second
 * resume of the same object would run its approved calls again.
 * @throws RunStateError `already_resumed` for a state resumed before.
 */
export function takeForResume(saved: unknown): void {
  if (!(saved instanceof PausedState)) return;
  if (resumed.has(saved)) {
    throw new RunStateError(
      'already_resumed',
      `Run ${saved.runId}: this state was already resumed; answer the interruptions of the resumed run's result instead`,
    );
  }
  resumed.add(saved);
}

/** Options of {@link PausedState.approve}. */
export interface ApproveOptions {
  /**
   * Approve this tool (or this skill, for `invoke_skill`) for the rest of the
   * run, as "approve always" does on the live path. Default false.
   */
  always?: boolean;
}

// A class merged with its interface: the state's fields are the object's own
// properties (what `JSON.stringify` writes), the answering methods live on the prototype.
export interface PausedState extends RunState {}

/** The state of an interrupted run: a {@link RunState} whose interruptions can be answered. */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: see the interface above.
export class PausedState {
  /** Wraps a saved state (a JSON copy included), checking its shape. @throws RunStateError */
  static from(saved: unknown): PausedState {
    return saved instanceof PausedState ? saved : new PausedState(parseRunState(saved));
  }

  constructor(state: RunState) {
    Object.assign(this, state);
  }

  /** The questions the run stopped on, unanswered or answered here but not yet resumed. */
  get interruptions(): Interruption[] {
    const out: Interruption[] = [];
    for (const view of this.interrupts) {
      const interruption = interruptionFromView(view, view.toolCallId && this.stepOf(view.toolCallId));
      if (interruption) out.push(interruption);
    }
    return out;
  }

  /** The plan step whose paused conversation holds the call (none for a simple run's `main`). */
  private stepOf(callId: string): string | undefined {
    for (const [key, conversation] of Object.entries(this.conversations)) {
      if (key === 'main') continue;
      const held = conversation.messages.some(
        (m) =>
          m.role === 'assistant' &&
          Array.isArray(m.content) &&
          m.content.some((p) => p.type === 'tool_call' && p.id === callId),
      );
      if (held) return key;
    }
    return undefined;
  }

  /**
   * Approves the call interruption `id` holds; `always` also approves later
   * calls in its scope. @throws InterruptError `invalid_request` for an id
   * the state does not hold; `already_answered` when it was answered before.
   */
  approve(id: string, options: ApproveOptions = {}): this {
    return this.decide(id, 'approval', { action: options.always ? 'approve_always' : 'approve' });
  }

  /**
   * Refuses the call: the tool does not run and the model is told
   * `User denied execution of <tool>: <message> The tool was not executed.`
   * @throws InterruptError as {@link PausedState.approve}.
   */
  reject(id: string, message?: string): this {
    const response: InterruptResponse = { action: 'deny' };
    if (message !== undefined) response.value = message;
    return this.decide(id, 'approval', response);
  }

  /**
   * Answers the question interruption `id` holds (`ask_user`): `value` is
   * the chosen option of a question with `options`, else the user's text.
   * The resumed run gives the call `User selected: <value>` or
   * `User responded: <value>` as its result.
   * @throws InterruptError `invalid_response` for an approval, or a value not
   *   among the options; as {@link PausedState.approve} otherwise.
   */
  answer(id: string, value: string): this {
    const options = this.interrupts.find((i) => i.id === id)?.options;
    if (options && !options.includes(value)) {
      throw new InterruptError(
        'invalid_response',
        `Interruption "${id}": "${value}" is not one of its options (${options.join(', ')})`,
      );
    }
    return this.decide(id, 'question', { action: options ? 'select' : 'input', value });
  }

  private decide(id: string, kind: Interruption['kind'], response: InterruptResponse): this {
    const view = this.interrupts.find((i) => i.id === id);
    if (!view) {
      throw new InterruptError('invalid_request', `No pending interruption "${id}" in this run's state`);
    }
    const held = view.kind === 'approval' ? 'approval' : 'question';
    if (held !== kind) {
      const how = held === 'approval' ? 'approve or reject it' : 'answer it with state.answer(id, value)';
      throw new InterruptError('invalid_response', `Interruption "${id}" is a ${held}: ${how}`);
    }
    const earlier = this.decisions?.[id];
    if (earlier) {
      throw new InterruptError(
        'already_answered',
        `Interruption "${id}" was already answered (${earlier.action}); each is answered once`,
      );
    }
    this.decisions = { ...this.decisions, [id]: response };
    return this;
  }
}
