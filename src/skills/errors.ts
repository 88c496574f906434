/**
 * The typed error of skill invocation. The `invoke_skill` tool turns it into
 * the JSON the model reads; direct callers switch on `kind`.
 * @module
 */
import { TandemError } from '../core/errors.js';

/** Why a skill invocation failed. */
export type SkillErrorKind =
  | 'not_found'
  | 'invalid_parameters'
  | 'invalid_output'
  | 'cycle'
  | 'depth_limit'
  | 'missing_tools'
  | 'no_model'
  | 'failed';

/** Details a {@link SkillError} carries besides its message. */
export interface SkillErrorDetails {
  skillId: string;
  /** Ids of the registered skills (with `not_found`). */
  availableSkills?: string[];
  /** JSON Schema of the skill's parameters (with `invalid_parameters`). */
  expectedParameters?: Record<string, unknown>;
  /** Validation problems as `path: message` lines. */
  issues?: string[];
  /** The invocation chain, outermost first (with `cycle` and `depth_limit`). */
  path?: string[];
  /** Tools the skill needs that are not available (with `missing_tools`). */
  missingTools?: string[];
  cause?: unknown;
}

/** A skill invocation that failed. */
export class SkillError extends TandemError<SkillErrorKind> {
  static override readonly brand: string = 'SkillError';

  readonly skillId: string;
  readonly availableSkills?: string[];
  readonly expectedParameters?: Record<string, unknown>;
  readonly issues?: string[];
  readonly path?: string[];
  readonly missingTools?: string[];

  constructor(kind: SkillErrorKind, message: string, details: SkillErrorDetails) {
    super(kind, message, { cause: details.cause });
    this.skillId = details.skillId;
    this.availableSkills = details.availableSkills;
    this.expectedParameters = details.expectedParameters;
    this.issues = details.issues;
    this.path = details.path;
    this.missingTools = details.missingTools;
  }
}
