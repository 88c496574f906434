/**
 * The typed error every sandbox operation throws.
 * @module
 */
import { TandemError } from '../core/errors.js';

/**
 * Why a sandbox operation failed:
 * - `path_escape`: a path leaves the workspace (`..`, an absolute path, a symlink pointing out);
 * - `not_found`: the file or directory does not exist;
 * - `invalid`: a bad argument (reading a directory, an unknown language, an empty command);
 * - `too_large`: a file, snapshot or transfer is over its cap;
 * - `timeout`: a host-side helper (tar) ran out of time;
 * - `unavailable`: the isolation tool (`bwrap`, `tar`, `prlimit`) is missing or cannot work here, or no sandbox was given;
 * - `disposed`: the sandbox was disposed;
 * - `io`: any other file-system or process failure (see `cause`).
 */
export type SandboxErrorKind =
  | 'path_escape'
  | 'not_found'
  | 'invalid'
  | 'too_large'
  | 'timeout'
  | 'unavailable'
  | 'disposed'
  | 'io';

/** A failed sandbox operation. Switch on `kind`. */
export class SandboxError extends TandemError<SandboxErrorKind> {
  static override readonly brand: string = 'SandboxError';
}

/** True for a Node system error with this `code` (`ENOENT`, `ELOOP`, …). */
export function hasCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

/** Wraps a system error the caller cannot act on as an `io` {@link SandboxError}, keeping it as `cause`. */
export function ioError(message: string, cause: unknown): SandboxError {
  return new SandboxError('io', `${message}: ${(cause as Error).message}`, { cause });
}
