/**
 * Shared set-up of the built-in skill tests: real sandboxes (a
 * LocalProcessSandbox always, a BubblewrapSandbox where bwrap works here),
 * a `ToolContext` for calling `invoke_skill` by hand, and stage names.
 */

import type { EventBus } from '../../../src/core/event-bus.js';
import type { TandemEvent } from '../../../src/core/events.js';
import type { Sandbox } from '../../../src/core/sandbox.js';
import { BubblewrapSandbox } from '../../../src/sandbox/bubblewrap.js';
import { LocalProcessSandbox } from '../../../src/sandbox/local.js';
import type { ToolContext } from '../../../src/tools/types.js';

/** Whether bwrap can create its namespaces on this machine (the sandbox tests require it; here it is optional). */
export const bwrap = await BubblewrapSandbox.check();

/** The sandbox kinds to run a test on. */
export const SANDBOXES = bwrap.available ? (['local', 'bwrap'] as const) : (['local'] as const);

/** A fresh sandbox of `kind`. */
export function createSandbox(kind: 'local' | 'bwrap'): Promise<Sandbox & { dispose(): Promise<void> }> {
  return kind === 'local' ? LocalProcessSandbox.create() : BubblewrapSandbox.create();
}

/** Runs `fn` on a fresh sandbox of `kind`, disposing of it after. */
export async function withSandbox<T>(
  kind: 'local' | 'bwrap',
  fn: (sandbox: Sandbox) => Promise<T>,
): Promise<T> {
  const sandbox = await createSandbox(kind);
  try {
    return await fn(sandbox);
  } finally {
    await sandbox.dispose();
  }
}

/** A tool context on `bus` with `sandbox`, for calling `invoke_skill` directly. */
export function toolContext(bus: EventBus, sandbox?: Sandbox): ToolContext {
  return {
    signal: new AbortController().signal,
    runId: bus.runId,
    toolCallId: 'call_1',
    sandbox,
    emit: bus.scope({ parentId: 'call_1' }),
  };
}

/** `name:status` of every `stage` event, in order. */
export function stages(events: readonly TandemEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'stage' ? [`${e.name}:${e.status}`] : []));
}
