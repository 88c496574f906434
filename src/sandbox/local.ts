/**
 * `LocalProcessSandbox`: commands run as ordinary child processes of this
 * one, in a temp workspace, with a scrubbed environment. Convenient and
 * fast; NOT a security boundary — the code can read and write anything the
 * host user can, and reach the network. Use {@link BubblewrapSandbox} for
 * untrusted code.
 * @module
 */

import { prepareWorkspace, type SandboxOptions, WorkspaceSandbox } from './base.js';
import type { SpawnSpec } from './process.js';
import { Workspace } from './workspace.js';

/** Options of a {@link LocalProcessSandbox}. */
export interface LocalSandboxOptions extends SandboxOptions {
  /** PATH of the commands. Default: this process's PATH. */
  path?: string;
}

/**
 * A sandbox of plain child processes: a temp workspace, a scrubbed
 * environment (`PATH`, `HOME` = the workspace, `LANG`, plus what you pass),
 * the whole process group killed on timeout or abort, capped output.
 *
 * ```ts
 * const sandbox = await LocalProcessSandbox.create();
 * const { stdout } = await sandbox.exec('', { language: 'python', code: 'print(6 * 7)' });
 * await sandbox.dispose();
 * ```
 */
export class LocalProcessSandbox extends WorkspaceSandbox {
  protected readonly visibleRoot: string;

  private constructor(
    prepared: { root: string; owned: boolean },
    private readonly localOptions: LocalSandboxOptions,
  ) {
    super(prepared, localOptions, new Workspace(prepared.root, { maxReadBytes: localOptions.maxReadBytes }));
    this.visibleRoot = prepared.root;
  }

  /** Creates the workspace and the sandbox. */
  static async create(options: LocalSandboxOptions = {}): Promise<LocalProcessSandbox> {
    return new LocalProcessSandbox(await prepareWorkspace(options), options);
  }

  protected baseEnv(): Record<string, string> {
    return {
      PATH: this.localOptions.path ?? process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
      HOME: this.root,
      LANG: process.env.LANG ?? 'C.UTF-8',
    };
  }

  protected spawnSpec(argv: string[], cwd: string, env: Record<string, string>): SpawnSpec {
    return { file: argv[0] as string, args: argv.slice(1), env, cwd };
  }
}
