/**
 * The `ask_user` tool: lets the model put a `decision` (with options) or an
 * `input` question to the human through an {@link InterruptBus}.
 * @module
 */
import { type Runtime, resolveRuntime } from '../../core/seams.js';
import { lazySchema } from '../../model/lazy-zod.js';
import { defineTool, type Tool } from '../../tools/types.js';
import { askHuman } from './ask.js';
import type { InterruptBus } from './interrupt-bus.js';
import { answerText } from './interrupts.js';

/** Options of {@link askUserTool}. */
export interface AskUserToolOptions {
  bus: InterruptBus;
  /** Wait for an answer. Default 300 000 ms. */
  timeoutMs?: number;
  /** Clock for the wait, randomness for interrupt ids. */
  runtime?: Partial<Runtime>;
  /** Tool name. Default `ask_user`. */
  name?: string;
}

/** What the model passes to `ask_user`. */
export interface AskUserArgs {
  question: string;
  options?: string[];
}

const QUESTION = 'The question for the user';
const OPTIONS = 'Choices, when the user should pick one';

const parameters = lazySchema<AskUserArgs>((z) =>
  z.object({
    question: z.string().min(1).describe(QUESTION),
    options: z.array(z.string().min(1)).min(1).optional().describe(OPTIONS),
  }),
);

/**
 * A tool the model calls to ask the user. With `options` it is a decision,
 * otherwise free text. The result tells the model what happened:
 * `User selected: <option>`, `User responded: <text>`,
 * `User skipped this question.`, or that nobody answered in time. In a run
 * that pauses to ask (`pauseOnInterrupt`), the question is not put on the
 * bus: the run ends `interrupted` with it in `result.interruptions`, and
 * `state.answer(id, value)` then `resume(state)` give the call its answer.
 */
export function askUserTool(options: AskUserToolOptions): Tool<AskUserArgs, string> {
  const runtime = resolveRuntime(options.runtime);
  const name = options.name ?? 'ask_user';
  return defineTool({
    name,
    description:
      'Ask the user a question and wait for the answer. Give `options` when the user should choose one of them.',
    parameters,
    // A run that pauses to ask defers the call with this question instead (see ApprovalGate).
    question: ({ question, options: choices }) =>
      choices ? { title: question, options: choices } : { title: question },
    async execute({ question, options: choices }, ctx) {
      const { outcome, request } = await askHuman(
        choices
          ? {
              kind: 'decision',
              title: question,
              options: choices,
              timeoutMs: options.timeoutMs,
              toolName: name,
              toolCallId: ctx.toolCallId,
            }
          : {
              kind: 'input',
              title: question,
              timeoutMs: options.timeoutMs,
              toolName: name,
              toolCallId: ctx.toolCallId,
            },
        {
          bus: options.bus,
          runId: ctx.runId,
          clock: runtime.clock,
          random: runtime.random,
          emit: ctx.emit,
          signal: ctx.signal,
          waitingForHuman: ctx.waitingForHuman,
        },
      );
      const text = answerText(outcome);
      return outcome.timedOut
        ? `The user did not answer within ${Math.round(request.timeoutMs / 1000)} s. ${text}`
        : text;
    },
  });
}
