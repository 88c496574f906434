/**
 * `createProgressStore`: a {@link RunProgress} kept current from a run's
 * events, with subscriptions — the shape React's `useSyncExternalStore`,
 * Svelte stores and signals libraries expect.
 * @module
 */
import { isTerminalEvent, type TandemEvent } from '../core/events.js';
import { reduceProgress } from './progress.js';
import { initialProgress, type ProgressLimits, type RunProgress } from './progress-types.js';

/** Anything that emits a run's events to listeners: a `Run` or an `EventBus`. */
export interface ProgressSource {
  on(type: '*', listener: (event: TandemEvent) => void): unknown;
  off(type: '*', listener: (event: TandemEvent) => void): unknown;
}

/** Called after an event changed the state. */
export type ProgressListener = (state: RunProgress, event: TandemEvent) => void;

/** Options of {@link createProgressStore}. */
export interface ProgressStoreOptions extends ProgressLimits {
  /** State to start from (e.g. one rendered on the server). Default {@link initialProgress}. */
  initial?: RunProgress;
}

/** A run's progress, kept current. */
export interface ProgressStore {
  /** The current state; the same object until an event changes it. */
  getState(): RunProgress;
  /**
   * Calls `listener` after every event that changed the state (a replayed
   * event does not). Returns the function that unsubscribes. A listener that
   * throws does not keep the others from running; the first error is rethrown
   * once all ran.
   */
  subscribe(listener: ProgressListener): () => void;
  /** Applies an event (e.g. one parsed from an SSE stream) and returns the new state. */
  apply(event: TandemEvent): RunProgress;
  /**
   * Applies every event `source` emits from now on, until the run's terminal
   * event or the returned function is called. Attach synchronously after
   * `run()` to see the whole run.
   */
  attach(source: ProgressSource): () => void;
  /** Replaces the state (default: {@link initialProgress}) and notifies no one. */
  reset(state?: RunProgress): void;
}

/**
 * A progress store, attached to `source` when one is given.
 *
 * ```ts
 * const store = createProgressStore(orchestrator.run(task));
 * store.subscribe((progress) => render(progress));
 * ```
 */
export function createProgressStore(
  source?: ProgressSource,
  options: ProgressStoreOptions = {},
): ProgressStore {
  const { initial, ...limits } = options;
  let state = initial ?? initialProgress();
  const listeners = new Set<ProgressListener>();

  const apply = (event: TandemEvent): RunProgress => {
    const next = reduceProgress(state, event, limits);
    if (next === state) return state;
    state = next;
    let failure: { error: unknown } | undefined;
    for (const listener of [...listeners]) {
      try {
        listener(next, event);
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
    return next;
  };

  const store: ProgressStore = {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    apply,
    attach(target) {
      const onEvent = (event: TandemEvent) => {
        if (isTerminalEvent(event)) target.off('*', onEvent);
        apply(event);
      };
      target.on('*', onEvent);
      return () => {
        target.off('*', onEvent);
      };
    },
    reset(next = initialProgress()) {
      state = next;
    },
  };
  if (source) store.attach(source);
  return store;
}
