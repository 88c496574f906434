/**
 * Why a planner operation failed.
 * @module
 */
import { TandemError } from '../../core/errors.js';
import { emptyUsage, type Usage } from '../../core/usage.js';

/** Why planning failed. */
export type PlanErrorKind = 'decision_failed' | 'invalid_plan' | 'model_failed' | 'enhance_failed';

/**
 * A planner operation that did not produce a result: `decision_failed`
 * (decide), `invalid_plan` (createPlan / revise got replies, none valid),
 * `model_failed` (createPlan / revise: the model call itself failed),
 * `enhance_failed` (enhanceStepInstructions). `cause` holds the underlying
 * error (a `StructuredOutputError` or `ModelError`). Aborts are never a
 * PlanError: they surface as `AbortError`.
 */
export class PlanError extends TandemError<PlanErrorKind> {
  static override readonly brand: string = 'PlanError';

  /** Model calls made. */
  readonly attempts: number;
  /** The last raw reply, when there was one. */
  readonly lastReply?: string;
  /** Tokens spent on the failed operation. */
  readonly usage: Usage;
  constructor(
    kind: PlanErrorKind,
    message: string,
    options: { cause?: unknown; attempts?: number; lastReply?: string; usage?: Usage } = {},
  ) {
    super(kind, message, { cause: options.cause });
    this.attempts = options.attempts ?? 0;
    this.lastReply = options.lastReply;
    this.usage = options.usage ?? emptyUsage();
  }
}
