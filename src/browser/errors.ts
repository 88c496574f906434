/**
 * The typed error every browser tool fails with.
 * @module
 */
import { TandemError } from '../core/errors.js';

/**
 * Why a browser action failed:
 * - `launch`: Chromium did not start, or the CDP endpoint did not answer;
 * - `timeout`: the page did not load, or the action or wait did not finish, in time;
 * - `blocked`: the network rules refused the URL — `rule` names the check (`url.scheme`, `url.private_address` …);
 * - `crashed`: the page's renderer crashed (the next action opens a fresh page);
 * - `closed`: the browser is closed or gone (disposed, aborted, killed, disconnected);
 * - `dialog`: the page opened a dialog (alert, confirm, prompt); it was dismissed so the page does not block;
 * - `target`: no element, or more than one, matched the ref or selector, or it cannot take the action;
 * - `no_viewer`: `browser_get_stream_url` was called but no run viewer is attached to the session;
 * - `action`: Playwright refused the action for another reason (its message says which).
 *
 * A cancelled call rejects with the core's `AbortError` instead.
 */
export type BrowserErrorKind =
  | 'launch'
  | 'timeout'
  | 'blocked'
  | 'crashed'
  | 'closed'
  | 'dialog'
  | 'target'
  | 'no_viewer'
  | 'action';

/** A failed browser action. Switch on `kind`. */
export class BrowserError extends TandemError<BrowserErrorKind> {
  static override readonly brand: string = 'BrowserError';

  /** For `blocked`: the URL refused. */
  readonly url?: string;
  /** For `blocked`: the URL check's rule, e.g. `url.private_address`. */
  readonly rule?: string;
  constructor(
    kind: BrowserErrorKind,
    message: string,
    options: { url?: string; rule?: string; cause?: unknown } = {},
  ) {
    super(kind, message, { cause: options.cause });
    this.url = options.url;
    this.rule = options.rule;
  }
}
