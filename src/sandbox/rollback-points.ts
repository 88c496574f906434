/**
 * Rollback points: the workspace as it was before a turn first changed it.
 * Tools that write files or run commands take one before their first change
 * of each executor turn (as hermes' checkpoint manager does), so a turn that
 * went wrong can be undone whole.
 * @module
 */
import type { Sandbox } from '../core/sandbox.js';
import type { ToolContext } from '../tools/types.js';
import { SandboxError } from './errors.js';

/** One saved state of the workspace. */
export interface RollbackPoint {
  /** `<runId>#<turn>`: the run and turn it precedes. */
  id: string;
  runId: string;
  /** The executor turn whose first change it precedes. */
  turn: number;
  /** The sandbox snapshot holding it. */
  snapshotId: string;
  sandboxId: string;
}

/** Options of {@link RollbackPoints}. */
export interface RollbackPointsOptions {
  /** Points kept; older ones are forgotten (their snapshots follow the sandbox's own retention). Default 20. */
  keepLast?: number;
}

/**
 * Takes at most one snapshot per run and turn, before the turn's first
 * change, and restores any of them. Give one to
 * `createSandboxTools(sandbox, { rollback })`; the sandbox must support
 * snapshots (every sandbox of `tandem-agents/sandbox` does).
 */
export class RollbackPoints {
  private readonly keepLast: number;
  private readonly saved: RollbackPoint[] = [];
  // Calls of one turn run in parallel: they share the snapshot in flight instead of taking one each.
  private readonly pending = new Map<string, Promise<RollbackPoint>>();

  constructor(options: RollbackPointsOptions = {}) {
    this.keepLast = options.keepLast ?? 20;
  }

  /** The points kept, oldest first. */
  list(): readonly RollbackPoint[] {
    return [...this.saved];
  }

  /**
   * Saves the workspace unless this run's turn already has a point. Calls
   * outside an executor (no `ctx.turn`) save a point per call.
   * @throws SandboxError (`unavailable`) when the sandbox cannot snapshot.
   */
  async before(
    sandbox: Sandbox,
    ctx: Pick<ToolContext, 'runId' | 'turn' | 'toolCallId'>,
  ): Promise<RollbackPoint> {
    const turn = ctx.turn ?? 0;
    const id = ctx.turn === undefined ? `${ctx.runId}#call:${ctx.toolCallId}` : `${ctx.runId}#${turn}`;
    const known = this.saved.find((point) => point.id === id);
    if (known) return known;
    let taking = this.pending.get(id);
    if (!taking) {
      taking = this.take(sandbox, { id, runId: ctx.runId, turn });
      this.pending.set(id, taking);
      taking.finally(() => this.pending.delete(id)).catch(() => {});
    }
    return taking;
  }

  /**
   * Puts the workspace back as it was at `id` (a point id, or the latest
   * point of a run when given `{ runId }`).
   * @throws SandboxError (`not_found`) for an unknown point.
   */
  async restore(sandbox: Sandbox, id: string | { runId: string }): Promise<RollbackPoint> {
    const point =
      typeof id === 'string'
        ? this.saved.find((p) => p.id === id)
        : this.saved.filter((p) => p.runId === id.runId).pop();
    if (!point) {
      const name = typeof id === 'string' ? id : `run ${id.runId}`;
      throw new SandboxError(
        'not_found',
        `No rollback point ${name}; kept: ${this.saved.map((p) => p.id).join(', ') || 'none'}`,
      );
    }
    if (!sandbox.restore) throw unsupported(sandbox);
    await sandbox.restore(point.snapshotId);
    return point;
  }

  private async take(
    sandbox: Sandbox,
    key: Omit<RollbackPoint, 'snapshotId' | 'sandboxId'>,
  ): Promise<RollbackPoint> {
    if (!sandbox.snapshot) throw unsupported(sandbox);
    const snapshotId = await sandbox.snapshot();
    const point: RollbackPoint = { ...key, snapshotId, sandboxId: sandbox.id };
    this.saved.push(point);
    if (this.saved.length > this.keepLast) this.saved.splice(0, this.saved.length - this.keepLast);
    return point;
  }
}

function unsupported(sandbox: Sandbox): SandboxError {
  return new SandboxError(
    'unavailable',
    `Sandbox ${sandbox.id} cannot snapshot its workspace, so rollback points cannot be taken; use a sandbox with snapshot() and restore() or drop the rollback option`,
  );
}
