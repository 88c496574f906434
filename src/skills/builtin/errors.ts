/**
 * The typed error of the built-in skills. The registry wraps it in a
 * `SkillError` of kind `failed` whose `cause` it is, so a caller reads
 * `error.cause.kind`; the message names the kind too.
 * @module
 */
import { TandemError } from '../../core/errors.js';

/** Why a built-in skill could not do its work. */
export type BuiltinSkillErrorKind =
  /** The skill runs code or writes files and was invoked without a sandbox. */
  | 'no_sandbox'
  /** The language runtime the skill needs (python3, node) is not in the sandbox. */
  | 'no_runtime'
  /** An optional peer package is not installed (the message names it). */
  | 'missing_dependency'
  /** A path parameter is absolute or leaves the workspace. */
  | 'invalid_path'
  /** No data file was given or found in the workspace. */
  | 'no_data'
  /** Generated code still failed after the last repair attempt. */
  | 'execution_failed'
  /** The model's reply could not be used (no outline, no JSON). */
  | 'invalid_reply'
  /** A scaffolded app did not start or did not pass its health check. */
  | 'app_failed'
  /** An image the model returned by URL could not be downloaded. */
  | 'download_failed';

/** A built-in skill that failed for a reason the caller can act on. */
export class BuiltinSkillError extends TandemError<BuiltinSkillErrorKind> {
  static override readonly brand: string = 'BuiltinSkillError';

  /** The skill that failed. */
  readonly skillId: string;

  constructor(kind: BuiltinSkillErrorKind, skillId: string, message: string, options?: { cause?: unknown }) {
    super(kind, message, options);
    this.skillId = skillId;
  }
}
