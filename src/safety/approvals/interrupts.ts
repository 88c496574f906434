/**
 * Interrupts: questions a run puts to a human. Three kinds, each with its
 * own timeout and the default applied when nobody answers in time:
 *
 * | kind | answers | timeout | default |
 * | --- | --- | --- | --- |
 * | `approval` | `approve`, `approve_always`, `deny` | 120 s | `deny` |
 * | `decision` | `select` (value: one of `options`), `skip` | 300 s | `skip`, or `select` of `defaultOption` |
 * | `input` | `input` (value: text), `skip` | 300 s | `skip` |
 * @module
 */
import { TandemError } from '../../core/errors.js';
import type { InterruptView } from '../../core/events.js';
import type { Random } from '../../core/seams.js';

/** Kind of an interrupt. */
export type InterruptKind = InterruptView['kind'];

/** Timeout and default of each kind (the seed's `hitl_approval_timeout` / `hitl_decision_timeout`). */
export const INTERRUPT_DEFAULTS: Readonly<
  Record<InterruptKind, { timeoutMs: number; defaultAction: string }>
> = {
  approval: { timeoutMs: 120_000, defaultAction: 'deny' },
  decision: { timeoutMs: 300_000, defaultAction: 'skip' },
  input: { timeoutMs: 300_000, defaultAction: 'skip' },
};

/** Answers each kind accepts. */
export const INTERRUPT_ACTIONS: Readonly<Record<InterruptKind, readonly string[]>> = {
  approval: ['approve', 'approve_always', 'deny'],
  decision: ['select', 'skip'],
  input: ['input', 'skip'],
};

/** A pending question, as stored on an {@link InterruptBus} and shown in `interrupt` events. */
export interface InterruptRequest extends InterruptView {
  runId: string;
  /** Clock time it was asked. */
  createdAt: number;
  /** Value of the default answer (the `defaultOption` of a decision). */
  defaultValue?: unknown;
}

/** A human's answer. */
export interface InterruptResponse {
  action: string;
  /** The chosen option (`select`) or the text (`input`). */
  value?: unknown;
}

/** An answer as the asker receives it. */
export interface InterruptOutcome extends InterruptResponse {
  /** Nobody answered in time: this is the interrupt's default. */
  timedOut: boolean;
}

/** Why an interrupt operation failed. */
export type InterruptErrorKind = 'invalid_request' | 'invalid_response' | 'bus' | 'already_answered';

/** A malformed interrupt or answer, or a bus failure. */
export class InterruptError extends TandemError<InterruptErrorKind> {
  static override readonly brand: string = 'InterruptError';
}

/** What to ask. Omitted timeout and default come from {@link INTERRUPT_DEFAULTS}. */
export interface InterruptSpec {
  kind: InterruptKind;
  title: string;
  message?: string;
  /** Choices of a `decision` (required, at least one). */
  options?: string[];
  /** A decision's answer on timeout; one of `options`. Default: `skip`. */
  defaultOption?: string;
  /** An approval's action on timeout. Default `deny`. */
  defaultAction?: 'approve' | 'deny';
  timeoutMs?: number;
  toolName?: string;
  toolCallId?: string;
  args?: unknown;
}

/** `int_` and 12 hex digits from `random`. */
export function newInterruptId(random: Random): string {
  const hex = () =>
    Math.floor(random.next() * 0x1000000)
      .toString(16)
      .padStart(6, '0');
  return `int_${hex()}${hex()}`;
}

/**
 * Builds a request from a spec, applying the kind's defaults.
 * @throws InterruptError (`invalid_request`) for a decision without options,
 *   a `defaultOption` not among them, or a non-positive timeout.
 */
export function buildInterrupt(
  spec: InterruptSpec,
  meta: { id: string; runId: string; createdAt: number },
): InterruptRequest {
  const defaults = INTERRUPT_DEFAULTS[spec.kind];
  if (!defaults) throw new InterruptError('invalid_request', `Unknown interrupt kind "${spec.kind}"`);
  const timeoutMs = spec.timeoutMs ?? defaults.timeoutMs;
  if (!(timeoutMs > 0))
    throw new InterruptError('invalid_request', `Interrupt timeout must be positive, got ${timeoutMs}`);
  const request: InterruptRequest = {
    id: meta.id,
    runId: meta.runId,
    createdAt: meta.createdAt,
    kind: spec.kind,
    title: spec.title,
    timeoutMs,
    defaultAction: defaults.defaultAction,
  };
  if (spec.message !== undefined) request.message = spec.message;
  if (spec.toolName !== undefined) request.toolName = spec.toolName;
  if (spec.toolCallId !== undefined) request.toolCallId = spec.toolCallId;
  if (spec.args !== undefined) request.args = spec.args;
  if (spec.kind === 'decision') {
    if (!spec.options?.length)
      throw new InterruptError('invalid_request', 'A decision needs at least one option');
    request.options = [...spec.options];
    if (spec.defaultOption !== undefined) {
      if (!spec.options.includes(spec.defaultOption)) {
        throw new InterruptError(
          'invalid_request',
          `defaultOption "${spec.defaultOption}" is not one of the options`,
        );
      }
      request.defaultAction = 'select';
      request.defaultValue = spec.defaultOption;
    }
  }
  if (spec.kind === 'approval' && spec.defaultAction) request.defaultAction = spec.defaultAction;
  return request;
}

/** The answer applied when nobody answers `request` in time. */
export function defaultResponse(request: InterruptRequest): InterruptResponse {
  return request.defaultValue === undefined
    ? { action: request.defaultAction }
    : { action: request.defaultAction, value: request.defaultValue };
}

/**
 * Checks an answer against its request: a known action for the kind, a
 * `select` value among the options, an `input` value that is a string.
 * @throws InterruptError (`invalid_response`) otherwise.
 */
export function validateResponse(request: InterruptRequest, response: InterruptResponse): InterruptResponse {
  const actions = INTERRUPT_ACTIONS[request.kind];
  if (!response || typeof response.action !== 'string' || !actions.includes(response.action)) {
    throw new InterruptError(
      'invalid_response',
      `Interrupt ${request.id} (${request.kind}) accepts ${actions.join(', ')}; got ${JSON.stringify(response?.action)}`,
    );
  }
  if (response.action === 'select' && !request.options?.includes(response.value as string)) {
    throw new InterruptError(
      'invalid_response',
      `Interrupt ${request.id}: "${String(response.value)}" is not one of the options`,
    );
  }
  if (response.action === 'input' && typeof response.value !== 'string') {
    throw new InterruptError(
      'invalid_response',
      `Interrupt ${request.id}: an input answer needs a string value`,
    );
  }
  return response.value === undefined
    ? { action: response.action }
    : { action: response.action, value: response.value };
}

/** The view `interrupt` events carry: the request without bus bookkeeping. */
export function interruptView(request: InterruptRequest): InterruptView {
  const { runId: _runId, createdAt: _createdAt, defaultValue: _defaultValue, ...view } = request;
  return view;
}

/**
 * What a question's answer tells the model, as a tool result:
 * `User selected: <option>`, `User responded: <text>`, or
 * `User skipped this question.`
 */
export function answerText(outcome: InterruptResponse): string {
  if (outcome.action === 'select') return `User selected: ${String(outcome.value)}`;
  if (outcome.action === 'input') return `User responded: ${String(outcome.value)}`;
  return 'User skipped this question.';
}
