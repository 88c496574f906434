/**
 * Handoff artifacts (seed 002 "Cross-Sandbox Handoff Artifacts"): the files a
 * handing-off agent leaves in its sandbox, moved into the target's. The move
 * itself is injected (`transferArtifacts` of `tandem-agents/sandbox`); the
 * core never imports a sandbox implementation.
 * @module
 */
import { AbortError, errorMessage, isAbortError } from '../../core/errors.js';
import type { Emitter } from '../../core/events.js';
import type { Sandbox } from '../../core/sandbox.js';
import type { AgentProfile } from './agent-profiles.js';

/** What an {@link ArtifactTransfer} reports: the files moved and those left behind. */
export interface ArtifactTransferReport {
  transferred: readonly { path: string }[];
  skipped?: readonly { path: string; reason: string }[];
}

/**
 * Moves the files of one sandbox into another; `transferArtifacts` of
 * `tandem-agents/sandbox` fits as it is. Resolves with the paths moved or a report.
 */
export type ArtifactTransfer = (
  from: Sandbox,
  to: Sandbox,
) => Promise<readonly string[] | ArtifactTransferReport | undefined>;

/** The agents of one handoff: the one handing off and its target. */
export interface ArtifactMove {
  from: AgentProfile;
  to: AgentProfile;
}

/** Where a move runs: the run's signal, and the emitter of its `artifact_transfer` stage. */
export interface ArtifactMoveRun {
  signal: AbortSignal;
  emit: Emitter;
}

/**
 * Moves the source's artifacts into the target's sandbox when both have one
 * and a transfer is configured, inside an `artifact_transfer` stage. A failed
 * or partial move is returned as `artifactError`, for the target to be told,
 * instead of failing the run; an abort is rethrown.
 */
export async function moveArtifacts(
  transfer: ArtifactTransfer | undefined,
  { from, to }: ArtifactMove,
  { signal, emit }: ArtifactMoveRun,
): Promise<{ artifacts?: string[]; artifactError?: string }> {
  if (!transfer || !from.sandbox || !to.sandbox || from.sandbox === to.sandbox) return {};
  emit.emit('stage', { name: 'artifact_transfer', status: 'running', detail: `${from.name} → ${to.name}` });
  try {
    const moved = await transfer(from.sandbox, to.sandbox);
    if (signal.aborted) throw new AbortError(signal.reason);
    const report: ArtifactTransferReport = isPathList(moved)
      ? { transferred: moved.map((path) => ({ path })) }
      : (moved ?? { transferred: [] });
    const artifacts = report.transferred.map((f) => f.path);
    const skipped = report.skipped ?? [];
    emit.emit('stage', {
      name: 'artifact_transfer',
      status: 'completed',
      detail: `${artifacts.length} file(s)`,
    });
    if (skipped.length === 0) return { artifacts };
    const left = skipped.map((f) => `${f.path} (${f.reason})`).join(', ');
    return { artifacts, artifactError: `left behind: ${left}` };
  } catch (error) {
    emit.emit('stage', { name: 'artifact_transfer', status: 'failed', detail: errorMessage(error) });
    if (signal.aborted || isAbortError(error)) throw error;
    return { artifactError: errorMessage(error) };
  }
}

function isPathList(value: unknown): value is readonly string[] {
  return Array.isArray(value);
}
