/**
 * The viewer's typed error: a saved log or state that cannot be replayed, a
 * handler used in a way it cannot serve.
 * @module
 */
import { TandemError } from '../core/errors.js';

/** Why the viewer refused something. */
export type ViewerErrorKind =
  /** An event log that is not JSON lines (or a JSON array) of events. */
  | 'invalid_log'
  /** A saved state that is not a run state. */
  | 'invalid_state'
  /** A run id the handler already shows. */
  | 'duplicate_run'
  /** The page's script and stylesheet are not available (see `ViewerHandlerOptions.assets`). */
  | 'no_assets'
  /** A handler option out of range. */
  | 'invalid_option';

/** A viewer error. */
export class ViewerError extends TandemError<ViewerErrorKind> {
  static override readonly brand: string = 'ViewerError';
}
