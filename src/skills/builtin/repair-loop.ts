/**
 * Write → run → repair, bounded: the model writes code, the sandbox runs it,
 * and a failure goes back to the model with its error output until the code
 * runs or the attempts are spent (seed 002's code agent: 3 attempts).
 * @module
 */

import type { ExecResult } from '../../core/sandbox.js';
import type { SkillContext } from '../context.js';
import { skillStage } from '../research/pipeline.js';
import { BuiltinSkillError } from './errors.js';
import { tail } from './support.js';

/** What {@link writeRunRepair} needs of one skill. */
export interface RepairLoopOptions<C> {
  /** Model calls at most (the first write included). */
  attempts: number;
  system: string;
  /** The first request. */
  prompt: string;
  /** The code of a reply. */
  parse(reply: string): C;
  /** Runs the code in the sandbox. */
  run(code: C, attempt: number): Promise<ExecResult>;
  /** The repair request after `code` failed with `result`. */
  repairPrompt(code: C, result: ExecResult): string;
}

/** The last code that ran, and how. */
export interface RepairLoopResult<C> {
  code: C;
  result: ExecResult;
  /** Model calls made. */
  attempts: number;
  /** False when the last attempt failed too. */
  ok: boolean;
}

/** True when an exec ran to completion with exit code 0. */
export function succeeded(result: ExecResult): boolean {
  return result.exitCode === 0 && !result.timedOut;
}

/** Why an exec failed, in a line: the end of stderr, or the exit code / timeout. */
export function failureOf(result: ExecResult): string {
  if (result.timedOut) return 'timed out';
  return tail(result.stderr.trim() || result.stdout.trim(), 1500) || `exit code ${result.exitCode}`;
}

/**
 * Runs the loop inside `stage` events: `write`, then `execute` per attempt and
 * `repair` before each new attempt. Returns the first code that ran, or the
 * last attempt with `ok: false`.
 */
export async function writeRunRepair<C>(
  ctx: SkillContext,
  options: RepairLoopOptions<C>,
): Promise<RepairLoopResult<C>> {
  let prompt = options.prompt;
  for (let attempt = 1; ; attempt++) {
    const name = attempt === 1 ? 'write' : 'repair';
    const code = await skillStage(ctx, { name: name, detail: `attempt ${attempt}` }, async () =>
      options.parse(await ctx.generate(prompt, { system: options.system })),
    );
    const result = await skillStage(ctx, { name: 'execute', detail: `attempt ${attempt}` }, () =>
      options.run(code, attempt),
    );
    const ok = succeeded(result);
    if (ok || attempt >= options.attempts) return { code, result, attempts: attempt, ok };
    prompt = options.repairPrompt(code, result);
  }
}

/** @throws BuiltinSkillError `execution_failed` naming the last failure, unless `outcome` ran. */
export function assertRan<C>(ctx: SkillContext, outcome: RepairLoopResult<C>): void {
  if (outcome.ok) return;
  throw new BuiltinSkillError(
    'execution_failed',
    ctx.skillId,
    `Skill '${ctx.skillId}': the code still failed after ${outcome.attempts} attempt(s): ${failureOf(outcome.result)}`,
  );
}
