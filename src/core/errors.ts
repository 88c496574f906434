/**
 * Error classes. Every error tandem throws or reports is a {@link TandemError}
 * with a machine-readable `kind`; callers switch on `kind`, never on messages.
 *
 * Errors are recognised by brand, not by class identity: the ESM and CJS
 * builds, and two installed copies of the package, each have their own
 * classes, yet an error made by one must be retried, classified and caught by
 * the others. So every error carries the brands of its class chain under a
 * `Symbol.for` key, and `instanceof` on any tandem error class checks that
 * brand. Each class declares its brand as a literal equal to its name, which
 * also becomes the error's `name`, so a consumer's minifier cannot rename it.
 * @module
 */

/** Where an error keeps the brands of its class chain; `Symbol.for`, so every copy of tandem agrees on it. */
const BRANDS = Symbol.for('tandem-agents/error-brands');

/** A class, as `instanceof` and {@link isErrorOf} take it. */
export type ErrorClass<T> = abstract new (...args: never[]) => T;

/** Base class of every tandem error. */
export class TandemError<K extends string = string> extends Error {
  /**
   * The class's identity across builds and copies. Every tandem error class
   * declares its own, equal to its name; a user subclass may declare one too
   * (a name that cannot clash with ours) to be recognised across copies.
   */
  static readonly brand: string = 'TandemError';
  /** What went wrong, as a stable machine-readable string. */
  readonly kind: K;
  constructor(kind: K, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
    Object.defineProperty(this, BRANDS, { value: Object.freeze(chainBrands(new.target)) });
    this.name = ownBrand(new.target) ?? new.target.name;
  }

  /**
   * `x instanceof SomeTandemError` checks the brand, so it holds for errors
   * from any build or copy. A subclass without a brand of its own gets the
   * ordinary prototype check, so it never matches its parents' instances.
   */
  static override [Symbol.hasInstance]<T>(this: ErrorClass<T>, value: unknown): value is T {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class right of `instanceof`, often a subclass.
    return isInstance(this, value);
  }
}

function isInstance(type: object, value: unknown): boolean {
  const brand = ownBrand(type);
  if (brand === undefined) return Function.prototype[Symbol.hasInstance].call(type, value);
  return brandsOf(value)?.includes(brand) ?? false;
}

function ownBrand(type: object): string | undefined {
  return Object.hasOwn(type, 'brand') ? (type as typeof TandemError).brand : undefined;
}

function chainBrands(type: object): string[] {
  const brands: string[] = [];
  for (let t: object | null = type; t !== null && t !== Error; t = Object.getPrototypeOf(t)) {
    const brand = ownBrand(t);
    if (brand !== undefined) brands.push(brand);
  }
  return brands;
}

function brandsOf(value: unknown): readonly unknown[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const brands = (value as { [BRANDS]?: unknown })[BRANDS];
  return Array.isArray(brands) ? brands : undefined;
}

/** True when `error` is a tandem error, from this copy of the package or any other. */
export function isTandemError(error: unknown): error is TandemError {
  return error instanceof TandemError;
}

/** True when `error` is a {@link ModelError} (or a subclass such as `StreamInterruptedError`), from any copy. */
export function isModelError(error: unknown): error is ModelError {
  return error instanceof ModelError;
}

/**
 * True when `error` is an instance of `type`, by brand for tandem's error
 * classes: `isErrorOf(error, SandboxError)`. The same as `instanceof`, as a
 * function to pass to `filter` or a `catch` helper.
 */
export function isErrorOf<T>(error: unknown, type: ErrorClass<T>): error is T {
  return error instanceof type;
}

/** The operation was cancelled through its `AbortSignal`. */
export class AbortError extends TandemError<'aborted'> {
  static override readonly brand: string = 'AbortError';
  constructor(reason?: unknown) {
    super('aborted', reasonText(reason), { cause: reason });
  }
}

function reasonText(reason: unknown): string {
  if (reason instanceof Error && reason.message) return `Aborted: ${reason.message}`;
  if (typeof reason === 'string' && reason) return `Aborted: ${reason}`;
  return 'Aborted';
}

/**
 * True for an abort of any origin: ours (an `AbortError` or an `aborted`
 * `ModelError`, from any build or copy), the platform's `AbortError` /
 * `TimeoutError` DOMException.
 */
export function isAbortError(error: unknown): boolean {
  if (error instanceof AbortError || error instanceof ModelError) return error.kind === 'aborted';
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
  static override readonly brand: string = 'ModelError';
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
  | 'budget'
  | 'plan'
  | 'guardrail'
  | 'interrupted'
  | 'invalid_output'
  | 'internal';

/** A run that ended in error. `cause` holds the underlying error, e.g. a {@link ModelError}. */
export class RunError extends TandemError<RunErrorKind> {
  static override readonly brand: string = 'RunError';
}

/** Invalid options or wiring, found before anything runs. */
export class ConfigError extends TandemError<'config'> {
  static override readonly brand: string = 'ConfigError';
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
