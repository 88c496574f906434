/**
 * Runs one process tree with a deadline, an abort signal and capped output.
 * The child leads its own process group (spawned detached); on timeout, on
 * abort and when the child exits, the whole group gets SIGKILL, so nothing
 * it started outlives the call and holds its pipes open.
 * @module
 */
import { spawn } from 'node:child_process';
import { AbortError } from '../core/errors.js';
import type { ExecResult } from '../core/sandbox.js';
import type { Clock } from '../core/seams.js';
import { hasCode, SandboxError } from './errors.js';

/** Default deadline of one exec: 60 s. */
export const DEFAULT_EXEC_TIMEOUT_MS = 60_000;

/** Default cap on captured stdout and stderr, each: 1 MB. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

/** What to start. */
export interface SpawnSpec {
  file: string;
  args: string[];
  /** The whole environment of the child; nothing is inherited. */
  env: Record<string, string>;
  cwd: string;
  uid?: number;
  gid?: number;
}

/** How to run it. */
export interface RunProcessOptions {
  clock: Clock;
  stdin?: string | Uint8Array;
  timeoutMs: number;
  maxOutputBytes: number;
  /** Kill the tree as soon as stdout or stderr passes the cap, instead of draining the rest. */
  stopAtCap?: boolean;
  /** Any of them aborting kills the tree; the call then rejects with {@link AbortError}. */
  signals: ReadonlyArray<AbortSignal | undefined>;
}

/** {@link ExecResult} with the output as bytes. */
export interface RawExecResult extends Omit<ExecResult, 'stdout' | 'stderr'> {
  stdout: Buffer;
  stderr: Buffer;
}

/**
 * Runs `spec` to completion; output decoded as UTF-8.
 * @throws AbortError when a signal aborts (after the tree is dead).
 * @throws SandboxError `unavailable` when the executable does not exist.
 */
export async function runProcess(spec: SpawnSpec, options: RunProcessOptions): Promise<ExecResult> {
  const raw = await runProcessRaw(spec, options);
  return { ...raw, stdout: raw.stdout.toString('utf8'), stderr: raw.stderr.toString('utf8') };
}

/** {@link runProcess} with the output as bytes. */
export function runProcessRaw(spec: SpawnSpec, options: RunProcessOptions): Promise<RawExecResult> {
  const aborted = options.signals.find((s) => s?.aborted);
  if (aborted) return Promise.reject(new AbortError(aborted.reason));
  const started = options.clock.now();
  return new Promise<RawExecResult>((resolve, reject) => {
    const child = spawn(spec.file, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      uid: spec.uid,
      gid: spec.gid,
    });
    const stdout = new CappedBuffer(options.maxOutputBytes);
    const stderr = new CappedBuffer(options.maxOutputBytes);
    const collect = (buffer: CappedBuffer) => (chunk: Buffer) => {
      buffer.push(chunk);
      if (buffer.truncated && options.stopAtCap) killTree();
    };
    let timedOut = false;
    let abortReason: { reason: unknown } | undefined;
    let spawnError: unknown;

    const killTree = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
    };
    const onAbort = (event: Event) => {
      abortReason ??= { reason: (event.target as AbortSignal).reason };
      killTree();
    };
    // Platform timers overflow past 2^31 - 1 ms and would fire at once.
    const cancelTimer = options.clock.setTimer(Math.min(options.timeoutMs, 2_147_483_647), () => {
      timedOut = true;
      killTree();
    });
    for (const signal of options.signals) signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', collect(stdout));
    child.stderr.on('data', collect(stderr));
    // A child that exits without reading its input closes the pipe under us: not an error.
    child.stdin.on('error', () => {});
    child.stdin.end(options.stdin ?? '');
    child.on('error', (error) => {
      spawnError = error;
    });
    child.on('exit', killTree);
    child.on('close', (code) => {
      cancelTimer();
      for (const signal of options.signals) signal?.removeEventListener('abort', onAbort);
      if (spawnError) {
        reject(
          hasCode(spawnError, 'ENOENT')
            ? new SandboxError('unavailable', `Cannot run ${spec.file}: not found`, { cause: spawnError })
            : new SandboxError('io', `Cannot run ${spec.file}: ${(spawnError as Error).message}`, {
                cause: spawnError,
              }),
        );
        return;
      }
      if (abortReason) {
        reject(new AbortError(abortReason.reason));
        return;
      }
      resolve({
        exitCode: code,
        stdout: stdout.bytes(),
        stderr: stderr.bytes(),
        timedOut,
        truncated: stdout.truncated || stderr.truncated,
        durationMs: options.clock.now() - started,
      });
    });
  });
}

/** Keeps the first `cap` bytes of a stream and drains the rest, so the writer never blocks. */
class CappedBuffer {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;

  constructor(private readonly cap: number) {}

  push(chunk: Buffer): void {
    const room = this.cap - this.size;
    if (chunk.length > room) this.truncated = true;
    if (room <= 0) return;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(kept);
    this.size += kept.length;
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}
