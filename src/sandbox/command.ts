/**
 * What an exec runs: a shell line, or code in a language written to a
 * scratch file (a file, not `-c`, so code of any length runs and tracebacks
 * name a real file).
 * @module
 */
import type { ExecOptions } from '../core/sandbox.js';
import { SandboxError } from './errors.js';

/** Languages `exec` runs code in. */
export type ExecLanguage = NonNullable<ExecOptions['language']>;

/** Interpreter and file extension per language. */
export const INTERPRETERS: Readonly<Record<ExecLanguage, { command: string; extension: string }>> = {
  bash: { command: 'bash', extension: 'sh' },
  python: { command: 'python3', extension: 'py' },
  node: { command: 'node', extension: 'cjs' },
};

/** Workspace directory of the scratch files code runs from; removed after each run. */
export const SCRATCH_DIR = '.tandem/exec';

/** A planned exec: `argv` with `{script}` standing for the scratch file's path, when there is one. */
export interface ExecPlan {
  argv: string[];
  script?: { name: string; content: string };
}

/**
 * Plans an exec. With `language` but no `code`, the command is taken as the code.
 * @param scratchName A unique file name stem for the scratch file.
 * @throws SandboxError `invalid` for an empty command or an unknown language.
 */
export function planExec(command: string, options: ExecOptions, scratchName: string): ExecPlan {
  const code = options.code ?? (options.language ? command : undefined);
  if (code !== undefined) {
    const language = options.language ?? 'bash';
    const interpreter = INTERPRETERS[language];
    if (!interpreter) throw new SandboxError('invalid', `Unknown language ${JSON.stringify(language)}`);
    return {
      argv: [interpreter.command, SCRIPT_PLACEHOLDER],
      script: { name: `${scratchName}.${interpreter.extension}`, content: code },
    };
  }
  if (!command.trim()) throw new SandboxError('invalid', 'Empty command');
  return { argv: ['/bin/sh', '-c', command] };
}

/** Stands for the scratch file's path in {@link ExecPlan.argv}. */
export const SCRIPT_PLACEHOLDER = '\0script';

/** Checks caller-supplied environment names and values. */
export function checkEnv(env: Record<string, string> | undefined): void {
  for (const [name, value] of Object.entries(env ?? {})) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || typeof value !== 'string' || value.includes('\0')) {
      throw new SandboxError('invalid', `Invalid environment variable ${JSON.stringify(name)}`);
    }
  }
}
