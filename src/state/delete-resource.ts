/**
 * Forgetting a user: one call that removes a resource's data from every
 * store an app keeps it in — threads, working memory, vectors and the run
 * checkpoints filed under it.
 * @module
 */
import { errorMessage, isErrorOf } from '../core/errors.js';
import type { CheckpointStore } from './checkpoint-store.js';
import type { VectorStore, WorkingMemoryStore } from './memory-store.js';
import { SessionError, type SessionStore } from './session.js';

/** A store {@link deleteResource} clears: any of the memory, session and checkpoint stores. */
export type ResourceStore =
  | SessionStore
  | WorkingMemoryStore
  | VectorStore
  | CheckpointStore
  | { deleteResource(resourceId: string): Promise<void> };

/** What {@link deleteResource} removed. */
export interface DeleteResourceReport {
  /** How many stores were cleared. */
  stores: number;
  /** Ids of the run checkpoints deleted (the states that name the resource). */
  checkpoints: string[];
}

/**
 * Removes every datum of `resourceId` from `stores`, each store once even
 * when passed in several roles: a store with `deleteResource` (session,
 * vector, SQL and Redis stores) removes all it holds of the user; a
 * working memory store without it deletes the user's notes; a checkpoint
 * store with `list`, `load` and `delete` loses every saved run whose state
 * names the resource (`resourceId` given to `run()`) — a scan of the whole
 * store, since checkpoints are keyed by run.
 *
 * ```ts
 * await deleteResource('user-42', [sessions, memoryStore, checkpoints]);
 * ```
 * @throws SessionError `unavailable` naming each store that failed, after
 *   every other store was cleared; `invalid_id` when a store rejects the id.
 */
export async function deleteResource(
  resourceId: string,
  stores: Iterable<ResourceStore>,
): Promise<DeleteResourceReport> {
  const report: DeleteResourceReport = { stores: 0, checkpoints: [] };
  const failures: string[] = [];
  let firstError: unknown;
  for (const store of new Set(stores)) {
    try {
      await clear(store, resourceId, report);
      report.stores += 1;
    } catch (error) {
      if (isErrorOf(error, SessionError) && error.kind === 'invalid_id') throw error;
      failures.push(`${store.constructor?.name ?? 'store'}: ${errorMessage(error)}`);
      firstError ??= error;
    }
  }
  if (failures.length > 0) {
    throw new SessionError(
      'unavailable',
      `deleteResource(${resourceId}): ${failures.length} store(s) failed, the others were cleared: ${failures.join('; ')}`,
      { cause: firstError },
    );
  }
  return report;
}

async function clear(store: ResourceStore, resourceId: string, report: DeleteResourceReport): Promise<void> {
  const any = store as Partial<WorkingMemoryStore & VectorStore & CheckpointStore & SessionStore>;
  if (typeof any.deleteResource === 'function') await any.deleteResource(resourceId);
  else if (
    typeof any.get === 'function' &&
    typeof any.delete === 'function' &&
    typeof any.set === 'function'
  ) {
    await (store as WorkingMemoryStore).delete(resourceId);
  }
  if (isListedCheckpointStore(any)) report.checkpoints.push(...(await clearCheckpoints(any, resourceId)));
}

type ListedCheckpointStore = CheckpointStore & Required<Pick<CheckpointStore, 'list' | 'delete'>>;

function isListedCheckpointStore(store: Partial<CheckpointStore>): store is ListedCheckpointStore {
  return (
    typeof store.save === 'function' &&
    typeof store.load === 'function' &&
    typeof store.list === 'function' &&
    typeof store.delete === 'function'
  );
}

async function clearCheckpoints(store: ListedCheckpointStore, resourceId: string): Promise<string[]> {
  const deleted: string[] = [];
  for (const runId of await store.list()) {
    const state = await store.load(runId);
    if ((state as { resourceId?: unknown } | undefined)?.resourceId !== resourceId) continue;
    if (await store.delete(runId)) deleted.push(runId);
  }
  return deleted;
}
