/**
 * The handoff rules of one run (seed 003 §33–34, fixing B11 and B17): an
 * allowed-target matrix, at most `maxHandoffs` handoffs — every one of them
 * usable — and no handing back to any agent already in the run's chain, so
 * A→B→A is refused, not only A→B→A→B.
 * @module
 */
import type { Clock } from '../../core/seams.js';

/** The seed's limit of handoffs per run. */
export const DEFAULT_MAX_HANDOFFS = 3;

/** One handoff request, accepted or refused. */
export interface HandoffRecord {
  from: string;
  to: string;
  task: string;
  context: string;
  accepted: boolean;
  /** Why it was refused. */
  reason?: string;
  /** When it was requested, on the run's clock. */
  at: number;
}

/** The verdict of {@link HandoffSession.check}. */
export type HandoffVerdict = { allowed: true } | { allowed: false; reason: string };

/**
 * Per-run handoff state: who is active, who has worked on the run, what was
 * requested, and the accepted handoff waiting to be carried out.
 */
export class HandoffSession {
  /** Accepted and refused requests, in order. */
  readonly history: HandoffRecord[] = [];
  private readonly chain: string[];
  private accepted = 0;
  private waiting: HandoffRecord | undefined;

  constructor(
    start: string,
    private readonly allowedTargets: (agent: string) => readonly string[],
    private readonly maxHandoffs: number = DEFAULT_MAX_HANDOFFS,
    private readonly clock?: Clock,
  ) {
    this.chain = [start];
  }

  /** The agents that worked on the run, in order, the active one last. */
  get visited(): readonly string[] {
    return this.chain;
  }

  /** The agent working now. */
  get active(): string {
    return this.chain[this.chain.length - 1]!;
  }

  /** Accepted handoffs so far. */
  get count(): number {
    return this.accepted;
  }

  /** The accepted handoff not yet carried out. */
  get pending(): HandoffRecord | undefined {
    return this.waiting;
  }

  /** Whether `from` may hand off to `to` now, and if not, why (in words a model can act on). */
  check(from: string, to: string): HandoffVerdict {
    if (this.waiting) {
      return {
        allowed: false,
        reason: `a handoff to "${this.waiting.to}" is already under way in this turn`,
      };
    }
    if (!this.allowedTargets(from).includes(to)) {
      const allowed = this.allowedTargets(from);
      const list = allowed.length > 0 ? allowed.join(', ') : 'none';
      return { allowed: false, reason: `"${from}" may not hand off to "${to}" (allowed targets: ${list})` };
    }
    if (this.accepted >= this.maxHandoffs) {
      return {
        allowed: false,
        reason: `the run already used its ${this.maxHandoffs} handoff(s) (${this.chain.join(' → ')})`,
      };
    }
    if (this.chain.includes(to)) {
      return {
        allowed: false,
        reason: `"${to}" already worked on this run (${this.chain.join(' → ')}); handing back would loop`,
      };
    }
    return { allowed: true };
  }

  /**
   * Checks and records a request. An accepted one becomes {@link HandoffSession.pending}
   * until {@link HandoffSession.take} carries it out.
   */
  request(from: string, to: string, task: string, context: string): HandoffRecord {
    const verdict = this.check(from, to);
    const record: HandoffRecord = {
      from,
      to,
      task,
      context,
      accepted: verdict.allowed,
      at: this.clock?.now() ?? 0,
    };
    if (!verdict.allowed) record.reason = verdict.reason;
    else {
      this.accepted++;
      this.waiting = record;
    }
    this.history.push(record);
    return record;
  }

  /** Carries out the pending handoff: its target becomes the active agent. */
  take(): HandoffRecord | undefined {
    const record = this.waiting;
    if (!record) return undefined;
    this.waiting = undefined;
    this.chain.push(record.to);
    return record;
  }

  /** The history in a few lines, for logs and for the final agent's context. */
  summary(): string {
    return summarizeHandoffs(this.history);
  }
}

/** `history` as one line per request: `1. chat → research: <task> (accepted)` or `(refused: <reason>)`. */
export function summarizeHandoffs(history: readonly HandoffRecord[]): string {
  if (history.length === 0) return 'No handoffs.';
  return history
    .map((h, i) => {
      const status = h.accepted ? 'accepted' : `refused: ${h.reason ?? 'not allowed'}`;
      return `${i + 1}. ${h.from} → ${h.to}: ${h.task} (${status})`;
    })
    .join('\n');
}
