import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Runs `script` (a path from the repository root) in a fresh Node process
 * with the `logger` import hook, which prints a line when a module of
 * interest loads; resolves with what the process printed.
 */
export function importProbe(logger: string, script: string): (...args: string[]) => Promise<string> {
  return async (...args) => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--import', logger, script, ...args], {
      cwd: root,
    });
    return stdout;
  };
}
