/**
 * Error classes. Every error tandem throws or reports is a {@link TandemError}
 * with a machine-readable `kind`; callers switch on `kind`, never on messages.
 * @module
 */

/** Base class of every tandem error. */
export class TandemError<K extends string = string> extends Error {
  /** What went wrong, as a stable machine-readable string. */
  readonly kind: K;
  constructor(kind: K, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
    this.name = new.target.name;
  }
}

/** The operation was cancelled through its `AbortSignal`. */
export class AbortError extends TandemError<'aborted'> {
  constructor(reason?: unknown) {
    super('aborted', reasonText(reason), { cause: reason });
  }
}

function reasonText(reason: unknown): string {
  if (reason instanceof Error && reason.message) return `Aborted: ${reason.message}`;
  if (typeof reason === 'string' && reason) return `Aborted: ${reason}`;
  return 'Aborted';
}

/** True for an abort of any origin: ours, the platform's `AbortError` / `TimeoutError` DOMException. */
export function isAbortError(error: unknown): boolean {
  if (error instanceof AbortError) return true;
  if (error instanceof ModelError) return error.kind === 'aborted';
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/** Why a model call failed. */
export type ModelErrorKind =
  | 'rate_limit'
  | 'overloaded'
  | 'server'
  | 'timeout'
  | 'connection'
  | 'context_length'
  | 'payload_too_large'
  | 'auth'
  | 'not_found'
  | 'bad_request'
  | 'content_filter'
  | 'invalid_response'
  | 'empty_response'
  | 'aborted';

const RETRYABLE: ReadonlySet<ModelErrorKind> = new Set<ModelErrorKind>([
  'rate_limit',
  'overloaded',
  'server',
  'timeout',
  'connection',
  'invalid_response',
  'empty_response',
]);

/** Details a provider adapter attaches to a {@link ModelError}. */
export interface ModelErrorOptions {
  status?: number;
  /** Wait the provider asked for (`retry-after` / `retry-after-ms`). */
  retryAfterMs?: number;
  /** Context window the provider named in a context-length error. */
  contextLimit?: number;
  /** Model id (`provider:model`) the error came from. */
  model?: string;
  /** Overrides the default retryability of the kind. */
  retryable?: boolean;
  /** Raw error body, for logs. */
  body?: unknown;
  cause?: unknown;
}

/** A failed model call, as every adapter reports it. */
export class ModelError extends TandemError<ModelErrorKind> {
  readonly retryable: boolean;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly contextLimit?: number;
  readonly model?: string;
  readonly body?: unknown;
  constructor(kind: ModelErrorKind, message: string, options: ModelErrorOptions = {}) {
    super(kind, message, { cause: options.cause });
    this.retryable = options.retryable ?? RETRYABLE.has(kind);
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.contextLimit = options.contextLimit;
    this.model = options.model;
    this.body = options.body;
  }
}

/** Why a run (executor, planner or orchestrator) stopped without a result. */
export type RunErrorKind =
  | 'max_iterations'
  | 'timeout'
  | 'aborted'
  | 'invalid_tool_calls'
  | 'model'
  | 'length'
  | 'plan'
  | 'guardrail'
  | 'interrupted'
  | 'internal';

/** A run that ended in error. `cause` holds the underlying error, e.g. a {@link ModelError}. */
export class RunError extends TandemError<RunErrorKind> {}

/** Invalid options or wiring, found before anything runs. */
export class ConfigError extends TandemError<'config'> {
  constructor(message: string) {
    super('config', message);
  }
}

/** Text of any thrown value, for messages shown to a model or user. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}
