/**
 * Keeps a run's {@link RunState} current and writes checkpoints: at every
 * step boundary, after every tool turn of the attempt in progress, at every
 * interrupt, and at phase changes. Without a store it only keeps the state
 * for `run.state()`. Every save is counted, so a run whose checkpoints fail
 * says so on its result instead of only in `stage` events.
 * @module
 */

import { errorMessage } from '../../core/errors.js';
import type { Emitter, EventPayloads, InterruptView } from '../../core/events.js';
import { base64Replacer } from '../../core/media.js';
import type { Message } from '../../core/messages.js';
import type { Clock } from '../../core/seams.js';
import type { Usage } from '../../core/usage.js';
import { CheckpointError, type CheckpointStore, claimCheckpoint } from '../../state/checkpoint-store.js';
import {
  type ConversationState,
  RUN_STATE_VERSION,
  type RunPhase,
  type RunState,
  type StepState,
} from '../../state/run-state.js';
import type { Plan } from '../planner/index.js';
import type { StepRecord } from './dispatch.js';

/** How a run's checkpoint saves went. */
export interface CheckpointReport {
  /** Saves the store accepted. */
  saved: number;
  /** Saves the store refused. */
  failed: number;
  /** Message of the last refusal. */
  lastError?: string;
}

/** What a refused checkpoint save does: `warn` counts it and the run goes on; `fail` ends the run. */
export type CheckpointErrorPolicy = 'warn' | 'fail';

/** A conversation as the executor checkpointed it: its array, and how much of it was recorded. */
interface LiveConversation {
  conversation: Omit<ConversationState, 'messages'>;
  messages: readonly Message[];
  length: number;
  /** The last recorded message: a note may stand in its place during a model call. */
  last: Message | undefined;
}

function copyOf({ conversation, messages, length, last }: LiveConversation): ConversationState {
  const copy = messages.slice(0, length);
  if (last !== undefined) copy[length - 1] = last;
  return conversationState(conversation, copy);
}

function conversationState(
  conversation: Omit<ConversationState, 'messages'>,
  messages: Message[],
): ConversationState {
  // Object.assign, not `{ ...conversation, messages }`: in V8 a spread followed by more keys takes a slow path.
  return Object.assign({}, conversation, { messages });
}

/** What a new run's state starts from: its id, its request and the conversation it continues. */
export type NewRun = Pick<
  RunState,
  'runId' | 'task' | 'input' | 'history' | 'resourceId' | 'threadId' | 'mode'
>;

/** Records one run. */
export class RunRecorder {
  readonly state: RunState;
  /** The save failure that ends the run (policy `fail`); set once, by the first failure. */
  fatal?: CheckpointError;
  private records: ReadonlyMap<string, StepRecord> | undefined;
  private order: readonly StepRecord[] = [];
  private saving: Promise<void> = Promise.resolve();
  /** Conversations recorded without a store, copied when a snapshot needs them. */
  private readonly live = new Map<string, LiveConversation>();
  private readonly counts: CheckpointReport = { saved: 0, failed: 0 };
  /** The claim of a resume failed: another resume owns the run, so this one never writes. */
  private lost = false;

  constructor(
    private readonly deps: {
      store?: CheckpointStore;
      clock: Clock;
      emit: Emitter;
      usage: Usage;
      /** "Approve always" scopes are saved with the state. */
      approvals?: { approvedScopes(runId?: string): string[] };
      /** Default `warn`. */
      onCheckpointError?: CheckpointErrorPolicy;
      /** Called once, with {@link RunRecorder.fatal}, when policy `fail` meets a failed save. */
      onFatal?: (error: CheckpointError) => void;
    },
    initial: NewRun | RunState,
  ) {
    this.state =
      'version' in initial
        ? initial
        : {
            version: RUN_STATE_VERSION,
            ...initial,
            status: 'running',
            phase: 'classifying',
            steps: [],
            order: [],
            revisions: 0,
            conversations: {},
            handoffs: [],
            interrupts: [],
            usage: deps.usage,
            updatedAt: deps.clock.now(),
          };
  }

  /** Follows interrupts and handoffs on the run's events. */
  listen(on: (type: 'interrupt' | 'interrupt_response' | 'handoff', fn: (e: any) => void) => void): void {
    on('interrupt', (e: EventPayloads['interrupt']) => {
      this.state.interrupts.push(e.interrupt);
      void this.save();
    });
    on('interrupt_response', (e: EventPayloads['interrupt_response']) => {
      // A wait cancelled by a pause or an abort leaves the question open for the resumed run.
      if (e.action === 'cancelled') return;
      this.state.interrupts = this.state.interrupts.filter((i: InterruptView) => i.id !== e.interruptId);
    });
    on('handoff', (e: EventPayloads['handoff']) => {
      const { from, to, task, accepted, reason } = e;
      this.state.handoffs.push(
        reason === undefined ? { from, to, task, accepted } : { from, to, task, accepted, reason },
      );
    });
  }

  /** The step records the state is built from (the live objects the dispatcher updates). */
  track(plan: Plan, records: ReadonlyMap<string, StepRecord>, order: readonly StepRecord[]): void {
    this.state.plan = plan as RunState['plan'];
    this.records = records;
    this.order = order;
  }

  /** Records a phase change and saves. */
  phase(phase: RunPhase, patch: Partial<RunState> = {}): Promise<void> {
    Object.assign(this.state, patch);
    this.state.phase = phase;
    return this.save();
  }

  /**
   * Records the conversation of the attempt in progress on `key` (a step id
   * or `main`) and saves. What the executor appends later (e.g. results of
   * calls an abort cancelled) is not recorded. With a store the messages are
   * copied at once; without one, only their number is noted and the copy is
   * made if a snapshot is taken (`run.state()`, a pause), so a run that
   * never saves never copies.
   */
  conversation(
    key: string,
    conversation: Omit<ConversationState, 'messages'>,
    messages: readonly Message[],
  ): Promise<void> {
    if (!this.deps.store) {
      const length = messages.length;
      this.live.set(key, { conversation, messages, length, last: messages[length - 1] });
      return this.save();
    }
    this.state.conversations[key] = conversationState(conversation, messages.slice());
    return this.save();
  }

  /** Records how the run stopped (and, when it failed, why) and saves. */
  end(status: RunState['status'], error?: { kind: string; message: string }): Promise<void> {
    this.state.status = status;
    if (error) this.state.error = { kind: error.kind, message: error.message };
    else delete this.state.error;
    return this.save();
  }

  /**
   * Claims a resumed run in the store before it does anything: saves the
   * next revision only if the store still holds the state's own. Without a
   * store there is nothing to claim.
   * @throws CheckpointError `conflict` when another resume claimed the run
   *   first (this recorder then never saves), or the store's error.
   */
  claim(): Promise<void> {
    const store = this.deps.store;
    if (!store) return Promise.resolve();
    const expected = this.state.revision ?? 0;
    const claiming = this.saving.then(async () => {
      this.sync();
      this.state.revision = expected + 1;
      try {
        await claimCheckpoint(store, this.state.runId, this.state, expected);
        this.counts.saved++;
      } catch (error) {
        this.lost = true;
        throw error;
      }
    });
    this.saving = claiming.catch(() => undefined);
    return claiming;
  }

  /** Forgets the conversation of a finished attempt. */
  endConversation(key: string): void {
    this.live.delete(key);
    delete this.state.conversations[key];
  }

  /** A JSON copy of the state as of now. */
  snapshot(): RunState {
    this.sync();
    // Bytes a user put in a message become base64, not {"0": …}.
    return JSON.parse(JSON.stringify(this.state, base64Replacer)) as RunState;
  }

  /** Saves made and refused so far; `undefined` without a store. */
  checkpoints(): CheckpointReport | undefined {
    return this.deps.store ? { ...this.counts } : undefined;
  }

  /**
   * Writes a checkpoint. Saves are serialised (a later one never lands before
   * an earlier one). A failed save is counted and reported as a `stage`
   * event; under policy `warn` the run goes on — losing a checkpoint must not
   * lose the run — under `fail` it is handed to `onFatal`. Never rejects.
   */
  save(): Promise<void> {
    const store = this.deps.store;
    if (!store || this.lost) return Promise.resolve();
    const next = this.saving.then(async () => {
      if (this.lost) return;
      this.sync();
      this.state.revision = (this.state.revision ?? 0) + 1;
      try {
        await store.save(this.state.runId, this.state);
        this.counts.saved++;
      } catch (error) {
        this.refused(error);
      }
    });
    this.saving = next;
    return next;
  }

  private refused(error: unknown): void {
    const detail = errorMessage(error);
    this.counts.failed++;
    this.counts.lastError = detail;
    const emit = this.deps.emit;
    emit.emit('stage', { name: 'checkpoint', status: 'running' });
    emit.emit('stage', { name: 'checkpoint', status: 'failed', detail });
    if (this.deps.onCheckpointError !== 'fail' || this.fatal) return;
    this.fatal =
      error instanceof CheckpointError
        ? error
        : new CheckpointError('io', `Could not save the checkpoint of run ${this.state.runId}: ${detail}`, {
            cause: error,
          });
    this.deps.onFatal?.(this.fatal);
  }

  private sync(): void {
    for (const [key, live] of this.live) this.state.conversations[key] = copyOf(live);
    this.state.usage = { ...this.deps.usage };
    this.state.updatedAt = this.deps.clock.now();
    const scopes = this.deps.approvals?.approvedScopes(this.state.runId);
    if (scopes?.length) this.state.approvedScopes = scopes;
    if (!this.records) return;
    const steps: StepState[] = [];
    for (const record of this.records.values()) {
      const step: StepState = {
        step: record.step as unknown as StepState['step'],
        status: record.status,
        output: record.output,
        attempts: record.attempts,
      };
      if (record.error !== undefined) step.error = record.error;
      steps.push(step);
    }
    this.state.steps = steps;
    this.state.order = this.order.map((r) => r.step.id);
  }
}
