/**
 * Approvals of a standalone Executor: the gate it uses when none is
 * configured (tools' `needsApproval` pause the run), the state an
 * `interrupted` result carries, and the answers a resume takes from it.
 * @module
 */
import { ConfigError } from '../../core/errors.js';
import type { InterruptView } from '../../core/events.js';
import type { Message } from '../../core/messages.js';
import type { Clock, Runtime } from '../../core/seams.js';
import { ApprovalGate } from '../../safety/approvals/approval-gate.js';
import type { Interruption } from '../../safety/approvals/interruption.js';
import { INTERRUPT_DEFAULTS } from '../../safety/approvals/interrupts.js';
import { PausedState, takeForResume } from '../../state/paused-state.js';
import { parseRunState, RUN_STATE_VERSION } from '../../state/run-state.js';
import type { ExecutorResult } from './options.js';
import type { ExecutorSettings } from './settings.js';

/**
 * `options` with an `approvals` gate (the caller's, or one without a bus that
 * asks only about tools with `needsApproval`, "approve always" per run) and
 * a `gate`: the caller's, else the approvals'.
 */
export function withApprovals<O extends ExecutorSettings>(options: O, runtime: Partial<Runtime>): O {
  const approvals = options.approvals ?? new ApprovalGate({ threshold: 'none', scope: 'run', runtime });
  return { ...options, approvals, gate: options.gate ?? approvals.gate };
}

/**
 * The state of an execution that ended `interrupted`: its conversation and its
 * questions. `host` gives the run's approvals (their scopes) and the clock (`updatedAt`).
 */
export function pausedExecution(
  runId: string,
  result: ExecutorResult & { interruptions?: Interruption[] },
  host: { approvals: ApprovalGate | undefined; clock: Clock },
): PausedState {
  const last = [...result.messages].reverse().find((m) => m.role === 'user');
  const scopes = host.approvals?.approvedScopes(runId) ?? [];
  return new PausedState({
    version: RUN_STATE_VERSION,
    runId,
    task: last && typeof last.content === 'string' ? last.content : '',
    status: 'paused',
    phase: 'executing',
    steps: [],
    order: [],
    revisions: 0,
    conversations: { main: { mode: 'direct', messages: structuredClone(result.messages) } },
    handoffs: [],
    interrupts: (result.interruptions ?? []).map(viewOf),
    ...(scopes.length ? { approvedScopes: scopes } : {}),
    usage: { ...result.usage },
    updatedAt: host.clock.now(),
  });
}

/**
 * Reads a paused execution's state and hands its answers (recorded with
 * `state.approve` / `state.reject`) to `approvals`.
 * @throws RunStateError for a state of an unknown shape; ConfigError for one
 *   that holds no conversation or was not paused.
 */
export function takeExecution(
  saved: unknown,
  approvals: ApprovalGate,
): { runId: string; messages: Message[] } {
  const state = parseRunState(saved);
  const messages = state.conversations.main?.messages;
  if (!messages?.length) throw new ConfigError('resume: the state holds no conversation to continue');
  if (state.status !== 'paused') {
    throw new ConfigError(`resume: the state is ${state.status}, not paused on interruptions`);
  }
  const answers = Object.entries(state.decisions ?? {}).map(([id, response]) => {
    const interrupt = state.interrupts.find((i) => i.id === id);
    if (!interrupt?.toolCallId) throw new ConfigError(`resume: no pending interrupt "${id}" in the state`);
    return { toolCallId: interrupt.toolCallId, response };
  });
  takeForResume(saved);
  for (const { toolCallId, response } of answers) approvals.answer(toolCallId, response, state.runId);
  if (state.approvedScopes?.length) approvals.restoreScopes(state.approvedScopes, state.runId);
  return { runId: state.runId, messages };
}

/** The interrupt view an interruption stands for: what the state lists. */
function viewOf(interruption: Interruption): InterruptView {
  const kind = interruption.kind === 'approval' ? 'approval' : interruption.options ? 'decision' : 'input';
  const view: InterruptView = {
    id: interruption.id,
    kind,
    title: interruption.title,
    toolName: interruption.toolName,
    toolCallId: interruption.callId,
    args: interruption.args,
    timeoutMs: INTERRUPT_DEFAULTS[kind].timeoutMs,
    defaultAction: INTERRUPT_DEFAULTS[kind].defaultAction,
  };
  if (interruption.message !== undefined) view.message = interruption.message;
  if (interruption.options !== undefined) view.options = [...interruption.options];
  return view;
}
