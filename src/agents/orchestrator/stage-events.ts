/**
 * `stage` events around a phase of a run.
 * @module
 */
import type { Emitter } from '../../core/events.js';

/** Emits `stage` running, then completed or failed, around `fn`. */
export async function stage<T>(emit: Emitter, name: string, fn: () => Promise<T>): Promise<T> {
  emit.emit('stage', { name, status: 'running' });
  try {
    const value = await fn();
    emit.emit('stage', { name, status: 'completed' });
    return value;
  } catch (error) {
    emit.emit('stage', {
      name,
      status: 'failed',
      detail: error instanceof Error ? error.message : String(error),
    });
    throw error;
  }
}
