/**
 * Runs one stage's guardrails in order: each scan under a time budget on the
 * run's clock, findings turned into actions and `guardrail` events, text
 * rewrites (redactions) chained, stopping at the first block.
 * @module
 */
import { AbortError, errorMessage } from '../../core/errors.js';
import type { Emitter } from '../../core/events.js';
import type { Clock } from '../../core/seams.js';
import { isThenable } from '../../core/thenable.js';
import type {
  Guardrail,
  GuardrailAction,
  GuardrailCheck,
  GuardrailFinding,
  GuardrailScanContext,
  GuardrailStage,
  GuardrailVerdict,
  ReportedFinding,
} from './types.js';

/** Default budget of one scan: 500 ms (the seed's `GUARDRAILS_TIMEOUT_MS`). */
export const DEFAULT_GUARDRAIL_TIMEOUT_MS = 500;

/** How {@link runGuardrails} runs a stage. */
export interface GuardrailRunOptions {
  stage: GuardrailStage;
  clock: Clock;
  /** Budget per scan unless the guardrail sets its own. */
  timeoutMs: number;
  /**
   * A scan that times out or throws blocks (instead of being reported as a
   * warning), unless the guardrail sets its own `failClosed`.
   */
  failClosed: boolean;
  /** Where `guardrail` events go. */
  emit?: Emitter;
  /** The run's signal: aborting it rejects with {@link AbortError}. */
  signal?: AbortSignal;
}

/** A stage's verdict with the subject as the guardrails left it. */
export interface GuardrailRunResult<T> extends GuardrailVerdict {
  subject: T;
}

type ScanOutcome =
  | { kind: 'done'; check: GuardrailCheck }
  | { kind: 'timeout'; ms: number }
  | { kind: 'error'; error: unknown };

/**
 * Runs `guardrails` on `subject`. For a string subject, a guardrail's
 * rewritten `text` replaces it for the next guardrail and the result, unless
 * that guardrail's action is `log`. Emits one `guardrail` event per finding.
 * @throws AbortError when `options.signal` aborts.
 */
export async function runGuardrails<T>(
  guardrails: readonly Guardrail<T>[],
  subject: T,
  options: GuardrailRunOptions,
): Promise<GuardrailRunResult<T>> {
  return runStage(guardrails, subject, options);
}

/**
 * One stage run: what it runs and where it stands (the findings so far and
 * the subject as rewritten so far). The one object a run allocates; the scans
 * and their continuations share it.
 */
interface StageRun<T> {
  readonly guardrails: readonly Guardrail<T>[];
  readonly options: GuardrailRunOptions;
  findings: ReportedFinding[];
  current: T;
}

/**
 * {@link runGuardrails}, synchronous while the scans are: the verdict itself
 * when every scan returned synchronously (the built-in tool scan without DNS
 * does), a promise of it from the first scan that did not. Throws (or
 * rejects with) {@link AbortError} when `options.signal` aborts.
 */
export function runStage<T>(
  guardrails: readonly Guardrail<T>[],
  subject: T,
  options: GuardrailRunOptions,
): GuardrailRunResult<T> | Promise<GuardrailRunResult<T>> {
  return continueStage({ guardrails, options, findings: [], current: subject }, 0);
}

/** Runs the stage's guardrails from index `from` on. */
function continueStage<T>(
  run: StageRun<T>,
  from: number,
): GuardrailRunResult<T> | Promise<GuardrailRunResult<T>> {
  const { guardrails, options } = run;
  for (let i = from; i < guardrails.length; i++) {
    const guardrail = guardrails[i]!;
    if (options.signal?.aborted) throw new AbortError(options.signal.reason);
    const scanned = scanWithBudget(guardrail, run.current, options);
    if (scanned instanceof Promise) {
      return scanned.then((outcome) => {
        const verdict = applyScan(guardrail, outcome, run);
        return verdict ?? continueStage(run, i + 1);
      });
    }
    const verdict = applyScan(guardrail, scanned, run);
    if (verdict) return verdict;
  }
  return { blocked: false, findings: run.findings, subject: run.current };
}

/** Reports one scan's findings and applies its rewrite; the stage's verdict once it blocked. */
function applyScan<T>(
  guardrail: Guardrail<T>,
  outcome: ScanOutcome,
  run: StageRun<T>,
): GuardrailRunResult<T> | undefined {
  const { options } = run;
  if (options.signal?.aborted) throw new AbortError(options.signal.reason);
  const defaultAction = guardrail.action ?? 'block';
  let reported: GuardrailFinding[];
  if (outcome.kind === 'done') {
    reported = outcome.check.findings;
    const { text } = outcome.check;
    if (typeof run.current === 'string' && typeof text === 'string' && defaultAction !== 'log') {
      run.current = text as T;
    }
  } else {
    reported = [failureFinding(guardrail.name, outcome, guardrail.failClosed ?? options.failClosed)];
  }
  const { findings } = run;
  let blocked = false;
  for (const finding of reported) {
    const action: GuardrailAction = finding.action ?? defaultAction;
    const entry: ReportedFinding = {
      rule: finding.rule,
      reason: finding.reason,
      action,
      blocked: action === 'block',
      guardrail: guardrail.name,
    };
    findings.push(entry);
    blocked ||= entry.blocked;
    options.emit?.emit('guardrail', {
      stage: options.stage,
      rule: entry.rule,
      action,
      blocked: entry.blocked,
      reason: entry.reason,
    });
  }
  if (!blocked) return undefined;
  const reason = findings.find((f) => f.blocked)?.reason;
  return { blocked: true, findings, reason, subject: run.current };
}

function failureFinding(
  name: string,
  outcome: Exclude<ScanOutcome, { kind: 'done' }>,
  failClosed: boolean,
): GuardrailFinding {
  const action: GuardrailAction = failClosed ? 'block' : 'warn';
  if (outcome.kind === 'timeout') {
    return { rule: 'timeout', reason: `Guardrail "${name}" timed out after ${outcome.ms} ms`, action };
  }
  return { rule: 'error', reason: `Guardrail "${name}" failed: ${errorMessage(outcome.error)}`, action };
}

/**
 * Runs one scan; settles on its result, its error or its budget, whichever
 * comes first. A scan that returns synchronously has already finished within
 * whatever time it took: it gets no timer, no abort listener and no
 * AbortController unless it reads `signal` (most built-in scans do neither).
 */
function scanWithBudget<T>(
  guardrail: Guardrail<T>,
  subject: T,
  options: GuardrailRunOptions,
): ScanOutcome | Promise<ScanOutcome> {
  const context = new ScanContext();
  let result: ReturnType<Guardrail<T>['scan']>;
  try {
    result = guardrail.scan(subject, context);
  } catch (error) {
    return { kind: 'error', error };
  }
  if (!isThenable(result)) return { kind: 'done', check: toCheck(result) };
  return context.withBudget(result, guardrail, options);
}

/** A scan's context whose signal, with its controller, is made only if the scan reads it. */
class ScanContext implements GuardrailScanContext {
  private made: AbortController | undefined;
  get controller(): AbortController {
    this.made ??= new AbortController();
    return this.made;
  }
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /**
   * Settles on the scan's `pending` result, its error or its budget,
   * whichever comes first; past the budget or on the run's abort it aborts
   * this context's signal.
   */
  withBudget<T>(
    pending: PromiseLike<GuardrailFinding[] | GuardrailCheck | undefined>,
    guardrail: Guardrail<T>,
    options: GuardrailRunOptions,
  ): Promise<ScanOutcome> {
    const ms = guardrail.timeoutMs ?? options.timeoutMs;
    return new Promise<ScanOutcome>((resolve) => {
      let done = false;
      const finish = (outcome: ScanOutcome) => {
        if (done) return;
        done = true;
        cancelTimer();
        options.signal?.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      // The caller's abort ends the scan at once; runGuardrails then throws.
      const onAbort = () => {
        this.controller.abort(options.signal?.reason);
        finish({ kind: 'error', error: new AbortError(options.signal?.reason) });
      };
      const cancelTimer = options.clock.setTimer(ms, () => {
        this.controller.abort(new AbortError(`guardrail "${guardrail.name}" timed out`));
        finish({ kind: 'timeout', ms });
      });
      options.signal?.addEventListener('abort', onAbort, { once: true });
      pending.then(
        (result) => finish({ kind: 'done', check: toCheck(result) }),
        (error) => finish({ kind: 'error', error }),
      );
    });
  }
}

function toCheck(result: GuardrailFinding[] | GuardrailCheck | undefined): GuardrailCheck {
  if (!result) return { findings: [] };
  if (Array.isArray(result)) return { findings: result };
  return { findings: Array.isArray(result.findings) ? result.findings : [], text: result.text };
}
