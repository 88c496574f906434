/**
 * The `handoff_to_<target>` tools of an agent (seed 003 §33): one per allowed
 * target, arguments `{ task, context }`. Calling one asks the run's
 * {@link HandoffSession}; a refusal comes back as an explanatory error result,
 * never a crash.
 * @module
 */
import { z } from 'zod/v4';
import { TandemError } from '../core/errors.js';
import { normalizeToolName } from '../tools/registry.js';
import type { ToolGate } from '../tools/runner.js';
import { defineTool, type Tool } from '../tools/types.js';
import type { HandoffSession } from './handoff-session.js';

/** A handoff the run's rules refused; the model reads its message as the tool result. */
export class HandoffError extends TandemError<'refused'> {
  static override readonly brand: string = 'HandoffError';

  constructor(
    readonly from: string,
    readonly to: string,
    reason: string,
  ) {
    super(
      'refused',
      `Handoff from "${from}" to "${to}" refused: ${reason}. Continue the task yourself, or hand off to another allowed agent.`,
    );
  }
}

/** Arguments of a handoff tool. */
export const handoffArgsSchema = z.object({
  task: z.string().trim().min(1).describe('What the other agent should do, self-contained'),
  context: z
    .string()
    .default('')
    .describe('What you found or decided that the other agent needs (findings, constraints, file names)'),
});

/** Name of the tool handing off to `target`. */
export function handoffToolName(target: string): string {
  return `handoff_to_${target}`;
}

/** What {@link handoffTools} needs to describe the targets. */
export interface HandoffTarget {
  name: string;
  description: string;
}

/**
 * The handoff tools of agent `from`: one per target. An accepted call emits
 * `handoff` (accepted) and answers that the task was handed off; the agent's
 * execution then ends after this turn (the manager carries the handoff out).
 * A refused call emits `handoff` (refused, with the reason) and answers with
 * a {@link HandoffError}.
 */
export function handoffTools(
  session: HandoffSession,
  from: string,
  targets: readonly HandoffTarget[],
): Tool[] {
  return targets.map((target) =>
    defineTool({
      name: handoffToolName(target.name),
      description: `Hand the task over to the "${target.name}" agent: ${target.description}. It takes over and gives the final answer; you stop after this call.`,
      parameters: handoffArgsSchema,
      execute({ task, context }, ctx) {
        const record = session.request(from, target.name, task, context);
        const event = { from, to: target.name, task, accepted: record.accepted };
        if (!record.accepted) {
          ctx.emit.emit('handoff', { ...event, reason: record.reason });
          throw new HandoffError(from, target.name, record.reason ?? 'not allowed');
        }
        ctx.emit.emit('handoff', event);
        return `Task handed off to "${target.name}", which takes over now. Do not continue the task or answer it yourself.`;
      },
    }),
  );
}

const HANDOFF_PREFIX = 'handoff_to_';

/**
 * A gate that stops tool-name repair from turning a handoff the model asked
 * for (`handoff_to_research`) into a different one that happens to be spelt
 * alike (`handoff_to_reporter`). Such a call is recorded and refused as a
 * handoff to the agent the model named; other calls pass to `next`.
 */
export function handoffNameGate(session: HandoffSession, from: string, next?: ToolGate): ToolGate {
  return (call, ctx) => {
    const requested = call.requestedName;
    const isHandoff = call.tool.name.startsWith(HANDOFF_PREFIX);
    if (
      !isHandoff ||
      requested === undefined ||
      normalizeToolName(requested) === normalizeToolName(call.tool.name)
    ) {
      return next?.(call, ctx);
    }
    const normalized = normalizeToolName(requested);
    const target = normalized.startsWith(HANDOFF_PREFIX)
      ? normalized.slice(HANDOFF_PREFIX.length)
      : requested;
    const args = call.args as z.output<typeof handoffArgsSchema>;
    const record = session.request(from, target, args.task, args.context);
    const reason = record.reason ?? `there is no tool "${requested}"`;
    ctx.emit.scope({ parentId: call.call.id }).emit('handoff', {
      from,
      to: target,
      task: args.task,
      accepted: false,
      reason,
    });
    return { allow: false, result: `Error: ${new HandoffError(from, target, reason).message}` };
  };
}
