/**
 * The `handoff_to_<target>` tools of an agent (seed 003 §33): one per allowed
 * target, arguments `{ task, context }`. Calling one asks the run's
 * {@link HandoffSession}; a refusal comes back as an explanatory error result,
 * never a crash, and under the name the model called.
 * @module
 */
import { TandemError } from '../../core/errors.js';
import { type LazySchema, lazySchema } from '../../model/lazy-zod.js';
import type { ToolFamily } from '../../tools/registry.js';
import { defineTool, type Tool } from '../../tools/types.js';
import type { HandoffSession } from './session-rules.js';

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

/** Arguments of a handoff tool: `context` defaults to `''`. */
export interface HandoffArgs {
  task: string;
  context: string;
}

const TASK = 'What the other agent should do, self-contained';
const CONTEXT = 'What you found or decided that the other agent needs (findings, constraints, file names)';

/** Arguments of a handoff tool. */
export const handoffArgsSchema: LazySchema<HandoffArgs> = lazySchema((z) =>
  z.object({
    task: z.string().trim().min(1).describe(TASK),
    context: z.string().default('').describe(CONTEXT),
  }),
);

const HANDOFF_PREFIX = 'handoff_to_';

/** Name of the tool handing off to `target`. */
export function handoffToolName(target: string): string {
  return `${HANDOFF_PREFIX}${target}`;
}

/** What {@link handoffToolFamily} needs to describe the targets. */
export interface HandoffTarget {
  name: string;
  description: string;
}

/** The providers' tool-name limit, which a name made for an unoffered target must keep too. */
const TOOL_NAME = /^[a-z0-9_-]{1,64}$/;

/**
 * The handoff tools of agent `from` as a {@link ToolFamily}: one tool per
 * target. An accepted call emits `handoff` (accepted) and answers that the
 * task was handed off; the agent's execution then ends after this turn (the
 * manager carries the handoff out). A refused call emits `handoff` (refused,
 * with the reason) and answers with a {@link HandoffError}.
 *
 * A call naming a target the agent is not offered (`handoff_to_writing` when
 * only `handoff_to_data` is) is not repaired into an offered one that is spelt
 * alike: it is refused as a handoff to the agent the model named, and the
 * `tool_call` and `tool_result` events and the tool message keep that name.
 */
export function handoffToolFamily(
  session: HandoffSession,
  from: string,
  targets: readonly HandoffTarget[],
): ToolFamily {
  return {
    prefix: HANDOFF_PREFIX,
    tools: targets.map((target) => handoffTool(session, from, target)),
    resolve(normalizedName) {
      if (!TOOL_NAME.test(normalizedName)) return undefined;
      const name = normalizedName.slice(HANDOFF_PREFIX.length);
      return handoffTool(session, from, { name, description: `not offered to "${from}"` });
    },
  };
}

function handoffTool(session: HandoffSession, from: string, target: HandoffTarget): Tool {
  return defineTool({
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
  });
}
