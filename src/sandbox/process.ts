/**
 * Runs one process tree with a deadline, an abort signal and capped output.
 * The child leads its own session (spawned detached); on timeout, on abort
 * and when the child exits, its group, its session and its descendants are
 * killed ({@link killProcessTree}). Whatever still holds the output pipes a
 * moment later (a daemon that left the session and lost its parent) is
 * killed too, and a moment after that the pipes are dropped: the call
 * always settles.
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { AbortError } from '../core/errors.js';
import type { ExecOptions, ExecResult } from '../core/sandbox.js';
import type { Clock } from '../core/seams.js';
import { hasCode, SandboxError } from './errors.js';
import { fdLinks, killHolders, killProcessTree } from './process-tree.js';

/** Default deadline of one exec: 60 s. */
export const DEFAULT_EXEC_TIMEOUT_MS = 60_000;

/** Default cap on captured stdout and stderr, each: 1 MB. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

/** How long the output pipes may stay open once the child is gone, before their holders are killed, then again before they are dropped. */
export const PIPE_GRACE_MS = 100;

// Waits on fd 3 until the host has placed the process (in a cgroup), then becomes the command.
const GATE_SCRIPT = 'read -r _ <&3 || exit 125; exec 3<&-; exec "$@"';

/** What to start. */
export interface SpawnSpec {
  file: string;
  args: string[];
  /** The whole environment of the child; nothing is inherited. */
  env: Record<string, string>;
  cwd: string;
  uid?: number;
  gid?: number;
  /**
   * Called with the child's pid before the command starts (it waits in a
   * shell until this resolves), so nothing it starts escapes the placement.
   * A rejection kills the child and rejects the run with it.
   */
  place?: (pid: number) => Promise<void>;
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
  /** Output as it arrives, within the cap. */
  onOutput?: ExecOptions['onOutput'];
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
    const child = spawnChild(spec);
    const stdout = new CappedBuffer(options.maxOutputBytes);
    const stderr = new CappedBuffer(options.maxOutputBytes);
    const collect = (buffer: CappedBuffer, stream: 'stdout' | 'stderr') => {
      const { onOutput } = options;
      // Bytes of a character split across chunks wait in the decoder for the rest.
      const decoder = onOutput ? new StringDecoder('utf8') : undefined;
      return (chunk: Buffer) => {
        const kept = buffer.push(chunk);
        if (decoder && kept.length > 0) {
          const text = decoder.write(kept);
          if (text) onOutput?.({ stream, text });
        }
        if (buffer.truncated && options.stopAtCap) killTree();
      };
    };
    let timedOut = false;
    let abortReason: { reason: unknown } | undefined;
    let failure: SandboxError | undefined;
    const outputLinks = child.pid === undefined ? Promise.resolve([]) : fdLinks(child.pid, [1, 2]);

    const killTree = () => {
      if (child.pid !== undefined) void killProcessTree(child.pid);
    };
    let cancelGrace = () => {};
    let closed = false;
    const afterExit = () => {
      killTree();
      cancelGrace = options.clock.setTimer(PIPE_GRACE_MS, () => {
        // The second grace starts once the holders are dead, so an exec never returns with one still alive.
        void outputLinks.then(killHolders).then(() => {
          if (closed) return;
          cancelGrace = options.clock.setTimer(PIPE_GRACE_MS, () => {
            child.stdout.destroy();
            child.stderr.destroy();
          });
        });
      });
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

    child.stdout.on('data', collect(stdout, 'stdout'));
    child.stderr.on('data', collect(stderr, 'stderr'));
    // A child that exits without reading its input closes the pipe under us: not an error.
    child.stdin.on('error', () => {});
    child.stdin.end(options.stdin ?? '');
    if (spec.place) {
      openGate(child, spec.place, (error) => {
        // A child killed by a deadline or an abort before it was placed reports that, not the placement.
        if (!timedOut && !abortReason) failure ??= error;
        killTree();
      });
    }
    child.on('error', (error) => {
      failure ??= hasCode(error, 'ENOENT')
        ? new SandboxError('unavailable', `Cannot run ${spec.file}: not found`, { cause: error })
        : new SandboxError('io', `Cannot run ${spec.file}: ${error.message}`, { cause: error });
    });
    child.on('exit', afterExit);
    child.on('close', (code) => {
      closed = true;
      cancelTimer();
      cancelGrace();
      for (const signal of options.signals) signal?.removeEventListener('abort', onAbort);
      if (failure) return reject(failure);
      if (abortReason) return reject(new AbortError(abortReason.reason));
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

/** Starts `spec` in its own session; with `place`, behind a gate on fd 3 that {@link openGate} opens. */
function spawnChild(spec: SpawnSpec): ChildProcess & { stdin: Writable; stdout: Readable; stderr: Readable } {
  const [file, args] = spec.place
    ? ['/bin/sh', ['-c', GATE_SCRIPT, 'sh', spec.file, ...spec.args]]
    : [spec.file, spec.args];
  return spawn(file, args, {
    cwd: spec.cwd,
    env: spec.env,
    detached: true,
    stdio: spec.place ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'],
    uid: spec.uid,
    gid: spec.gid,
  }) as ChildProcess & { stdin: Writable; stdout: Readable; stderr: Readable };
}

/** Places the waiting child, then lets it start; on failure closes the gate (the child exits) and reports. */
function openGate(
  child: ChildProcess,
  place: (pid: number) => Promise<void>,
  onError: (error: SandboxError) => void,
): void {
  const gate = child.stdio[3] as Writable;
  gate.on('error', () => {});
  if (child.pid === undefined) return void gate.destroy();
  place(child.pid).then(
    () => gate.end('\n'),
    (error: unknown) => {
      onError(
        error instanceof SandboxError
          ? error
          : new SandboxError('io', `Cannot place the process: ${(error as Error).message}`, { cause: error }),
      );
      gate.destroy();
    },
  );
}

/** Keeps the first `cap` bytes of a stream and drains the rest, so the writer never blocks. */
class CappedBuffer {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;

  constructor(private readonly cap: number) {}

  /** Keeps what fits under the cap; returns what it kept. */
  push(chunk: Buffer): Buffer {
    const room = this.cap - this.size;
    if (chunk.length > room) this.truncated = true;
    if (room <= 0) return chunk.subarray(0, 0);
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(kept);
    this.size += kept.length;
    return kept;
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}
