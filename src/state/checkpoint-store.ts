/**
 * Checkpoint stores keep a run's serialisable state so it can resume in
 * another process. The state is opaque JSON here; stores wrap it in a small
 * versioned envelope so a file or key written by another format is reported,
 * not misread.
 * @module
 */
import { TandemError } from '../core/errors.js';
import { base64Replacer } from '../core/media.js';

/** Where run state is saved. Implementations: memory, file (`tandem-agents/fs`), Redis (`tandem-agents/redis`). */
export interface CheckpointStore<S = unknown> {
  /** Saves (replaces) the state of `runId`. The store keeps a copy: later changes to `state` do not affect it. */
  save(runId: string, state: S): Promise<void>;
  /** The saved state, a fresh copy, or `undefined` when none is stored. */
  load(runId: string): Promise<S | undefined>;
  /**
   * Compare-and-set: saves `state` only if the stored state of `runId` is at
   * revision `expected` ({@link checkpointRevision}) or none is stored, and
   * resolves whether it saved. Atomic across every process sharing the
   * store: of two calls expecting the same revision, at most one saves. A
   * resume claims its run with it (see {@link claimCheckpoint}); a store
   * without it gets a weaker claim.
   */
  saveIf?(runId: string, state: S, expected: number): Promise<boolean>;
  /** Ids of the stored runs, in no particular order. */
  list?(): Promise<string[]>;
  /** Deletes the state of `runId`; resolves whether there was one. */
  delete?(runId: string): Promise<boolean>;
}

/** Why a checkpoint operation failed. */
export type CheckpointErrorKind =
  | 'invalid_run_id'
  | 'serialize'
  | 'corrupt'
  | 'unsupported_format'
  | 'io'
  | 'conflict';

/** A checkpoint that could not be saved or read. */
export class CheckpointError extends TandemError<CheckpointErrorKind> {
  static override readonly brand: string = 'CheckpointError';
}

/** Format tag of the envelope every store writes. */
export const CHECKPOINT_FORMAT = 'tandem-checkpoint/1';

/** Longest run id a store accepts. */
export const MAX_RUN_ID_LENGTH = 256;

/**
 * @throws CheckpointError (`invalid_run_id`) for an empty, over-long or
 *   non-string id, or one with control characters.
 */
export function assertRunId(runId: string): void {
  if (
    typeof runId !== 'string' ||
    runId.length === 0 ||
    runId.length > MAX_RUN_ID_LENGTH ||
    hasControlCharacter(runId)
  ) {
    throw new CheckpointError(
      'invalid_run_id',
      `Invalid run id ${JSON.stringify(runId)}: 1–${MAX_RUN_ID_LENGTH} characters, no control characters`,
    );
  }
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * The stored text of a checkpoint: `{ format, runId, state }` as JSON. Bytes
 * (`Uint8Array`, e.g. an image part's `data`) are written as base64 text,
 * which is how they load back: media parts take either.
 * @throws CheckpointError (`serialize`) when `state` is not JSON-serialisable.
 */
export function encodeCheckpoint(runId: string, state: unknown): string {
  try {
    const text = JSON.stringify({ format: CHECKPOINT_FORMAT, runId, state }, base64Replacer);
    if (text === undefined) throw new TypeError('state is not JSON');
    return text;
  } catch (error) {
    throw new CheckpointError('serialize', `State of run ${runId} is not JSON-serialisable`, {
      cause: error,
    });
  }
}

/**
 * The state in a stored checkpoint text.
 * @throws CheckpointError (`corrupt`) for text that is not a checkpoint of
 *   `runId`, (`unsupported_format`) for another envelope format.
 */
export function decodeCheckpoint<S>(runId: string, text: string): S {
  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch (error) {
    throw new CheckpointError('corrupt', `Checkpoint of run ${runId} is not valid JSON`, { cause: error });
  }
  if (envelope === null || typeof envelope !== 'object' || !('format' in envelope)) {
    throw new CheckpointError('corrupt', `Checkpoint of run ${runId} has no format tag`);
  }
  const { format, runId: storedId, state } = envelope as { format: unknown; runId: unknown; state: S };
  if (format !== CHECKPOINT_FORMAT) {
    throw new CheckpointError(
      'unsupported_format',
      `Checkpoint of run ${runId} has format ${JSON.stringify(format)}, expected ${CHECKPOINT_FORMAT}`,
    );
  }
  if (storedId !== runId) {
    throw new CheckpointError(
      'corrupt',
      `Checkpoint stored for run ${runId} belongs to run ${JSON.stringify(storedId)}`,
    );
  }
  return state;
}

/**
 * The revision of a state: its `revision` field when that is a number (a
 * `RunState` counts its saves there), else 0. `saveIf` compares it.
 */
export function checkpointRevision(state: unknown): number {
  const revision = (state as { revision?: unknown } | null | undefined)?.revision;
  return typeof revision === 'number' ? revision : 0;
}

/**
 * Claims `runId` for one writer: saves `state` only if the store still holds
 * revision `expected` (or nothing), so that of two resumes of the same saved
 * state only one goes on. Uses the store's atomic `saveIf`; a store without
 * one is read, compared and written, which refuses a claim made after
 * another landed but not two that race.
 * @throws CheckpointError `conflict` when the store holds another revision,
 *   or the store's own error.
 */
export async function claimCheckpoint<S>(
  store: CheckpointStore<S>,
  runId: string,
  state: S,
  expected: number,
): Promise<void> {
  let claimed: boolean;
  if (store.saveIf) claimed = await store.saveIf(runId, state, expected);
  else {
    const stored = await store.load(runId);
    claimed = stored === undefined || checkpointRevision(stored) === expected;
    if (claimed) await store.save(runId, state);
  }
  if (!claimed) {
    throw new CheckpointError(
      'conflict',
      `Run ${runId} was claimed by another resume: the store no longer holds revision ${expected} of its state, which this resume started from. Load the latest state to resume it again.`,
    );
  }
}

/**
 * A {@link CheckpointStore} in memory. States are stored as JSON text, so
 * they are copied on save and on load, and a state that would not survive a
 * file or Redis store fails here too.
 */
export class MemoryCheckpointStore<S = unknown> implements CheckpointStore<S> {
  private readonly entries = new Map<string, string>();

  async save(runId: string, state: S): Promise<void> {
    assertRunId(runId);
    this.entries.set(runId, encodeCheckpoint(runId, state));
  }

  async load(runId: string): Promise<S | undefined> {
    assertRunId(runId);
    const text = this.entries.get(runId);
    return text === undefined ? undefined : decodeCheckpoint<S>(runId, text);
  }

  async saveIf(runId: string, state: S, expected: number): Promise<boolean> {
    assertRunId(runId);
    const text = encodeCheckpoint(runId, state);
    const stored = this.entries.get(runId);
    if (stored !== undefined && checkpointRevision(decodeCheckpoint(runId, stored)) !== expected)
      return false;
    this.entries.set(runId, text);
    return true;
  }

  async list(): Promise<string[]> {
    return [...this.entries.keys()];
  }

  async delete(runId: string): Promise<boolean> {
    assertRunId(runId);
    return this.entries.delete(runId);
  }
}
