/**
 * `delegate_to_research` (seed 002): an orchestrated run's executors hand a
 * sub-question to the `research` agent of `handoffs` and go on with its
 * answer — a delegation, not a transfer: the step keeps working. Every agent
 * of a run shares the run's {@link SharedMemory}, so what the research agent
 * found reaches the agents after it.
 * @module
 */
import { SharedMemory } from '../../context/shared-memory.js';
import { defineTool, type Tool } from '../../tools/types.js';
import {
  buildHandoffInput,
  DEFAULT_MAX_HANDOFFS,
  HandoffError,
  type HandoffManager,
  handoffArgsSchema,
} from '../handoff/index.js';

/** The agent `delegate_to_research` runs. */
export const RESEARCH_AGENT = 'research';

/** What one run shares between its agents: the memory and the delegations made. */
interface RunShare {
  memory: SharedMemory;
  delegations: number;
}

/**
 * The shared memory of each live run, by run id: the tools of an orchestrator
 * are built once, and a call finds its run's memory by `ctx.runId`.
 * {@link RunMemories.release} forgets a run once it settles.
 */
export class RunMemories {
  private readonly runs = new Map<string, RunShare>();

  /** The share of `runId`, created on first use. */
  of(runId: string): RunShare {
    let share = this.runs.get(runId);
    if (!share) {
      share = { memory: new SharedMemory(), delegations: 0 };
      this.runs.set(runId, share);
    }
    return share;
  }

  release(runId: string): void {
    this.runs.delete(runId);
  }
}

/**
 * `delegate_to_research({ task, context })`: runs the `research` agent of
 * `handoffs` on the task, the context and the run's shared memory, and
 * answers with its output. At most {@link DEFAULT_MAX_HANDOFFS} per run; one
 * more is refused with a {@link HandoffError} the model reads.
 */
export function delegateToResearchTool(handoffs: HandoffManager, memories: RunMemories): Tool {
  return defineTool({
    name: 'delegate_to_research',
    description:
      'Delegate a research question to the research agent (web search, cited findings) and get its answer back; you continue the task with it.',
    parameters: handoffArgsSchema,
    async execute({ task, context }, ctx) {
      const share = memories.of(ctx.runId);
      const from = ctx.agent ?? 'executor';
      if (share.delegations >= DEFAULT_MAX_HANDOFFS) {
        throw new HandoffError(
          from,
          RESEARCH_AGENT,
          `the run already used its ${DEFAULT_MAX_HANDOFFS} delegations`,
        );
      }
      share.delegations++;
      const input = buildHandoffInput({ task, context, from, memory: share.memory });
      const result = await handoffs.run(RESEARCH_AGENT, input, {
        signal: ctx.signal,
        emit: ctx.emit,
        stepId: ctx.stepId,
        memory: share.memory,
      });
      return result.output;
    },
  });
}
