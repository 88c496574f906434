/**
 * The sandbox contract: where tools run code and touch files. The core only
 * knows this interface; `tandem-agents/sandbox` implements it for Node.
 * @module
 */

/** Options of one {@link Sandbox.exec} call. */
export interface ExecOptions {
  /** Run `code` in this language instead of `command` as a shell line. */
  language?: 'bash' | 'python' | 'node';
  code?: string;
  stdin?: string;
  env?: Record<string, string>;
  /** Working directory relative to the workspace root. */
  cwd?: string;
  timeoutMs?: number;
  /** Cap on captured stdout and stderr, each. */
  maxOutputBytes?: number;
  signal?: AbortSignal;
  /**
   * Called with output as the command prints it (UTF-8 text, never split
   * inside a character), within `maxOutputBytes`, so a UI can show a long
   * script while it runs. The result still carries all of it.
   */
  onOutput?: (chunk: ExecOutput) => void;
}

/** A piece of a running command's output. */
export interface ExecOutput {
  stream: 'stdout' | 'stderr';
  text: string;
}

/** Outcome of {@link Sandbox.exec}. */
export interface ExecResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** True when stdout or stderr was cut at `maxOutputBytes`. */
  truncated: boolean;
  durationMs: number;
}

/** A directory entry of {@link Sandbox.listFiles}. */
export interface FileEntry {
  path: string;
  type: 'file' | 'directory';
  size: number;
}

/** An isolated place to run commands and keep files. Paths are relative to its workspace. */
export interface Sandbox {
  readonly id: string;
  exec(command: string, options?: ExecOptions): Promise<ExecResult>;
  writeFile(path: string, content: string | Uint8Array): Promise<void>;
  readFile(path: string): Promise<string>;
  /** Raw bytes of a file (binary artifacts); sandboxes without it are read as text. */
  readBytes?(path: string): Promise<Uint8Array>;
  listFiles(path?: string, options?: { recursive?: boolean }): Promise<FileEntry[]>;
  /** Saves the workspace (or configured paths); returns a snapshot id. */
  snapshot?(): Promise<string>;
  restore?(snapshotId: string): Promise<void>;
  dispose(): Promise<void>;
}
