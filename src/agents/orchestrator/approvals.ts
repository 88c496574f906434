/**
 * Approvals of an orchestrator: the gate a run uses when none is configured
 * (tools' `needsApproval` pauses the run), the `interrupted` result of a run
 * that paused, and the delivery of a resume's answers — those recorded in
 * the state by `state.approve` / `state.reject` and those passed as
 * `responses`.
 * @module
 */
import { ConfigError, type RunError } from '../../core/errors.js';
import type { InterruptView } from '../../core/events.js';
import type { Runtime } from '../../core/seams.js';
import type { Usage } from '../../core/usage.js';
import { ApprovalGate } from '../../safety/approvals/approval-gate.js';
import type { InterruptResponse } from '../../safety/approvals/interrupts.js';
import { PausedState } from '../../state/paused-state.js';
import type { RunState } from '../../state/run-state.js';
import type { OrchestratorResult } from './options.js';
import type { RunRecorder } from './run-recorder.js';
import type { OrchestratorSettings } from './settings.js';

/**
 * `options` with an `approvals` gate: the caller's, or one without a bus that
 * asks only about tools with `needsApproval` and keeps "approve always" per run.
 */
export function withApprovals<O extends OrchestratorSettings>(options: O, runtime: Partial<Runtime>): O {
  if (options.approvals) return options;
  return { ...options, approvals: new ApprovalGate({ threshold: 'none', scope: 'run', runtime }) };
}

/** The result of a run that paused (`pause` says on what): its questions, and its state to answer them on and resume. */
export function interruptedResult(recorder: RunRecorder, usage: Usage, pause: RunError): OrchestratorResult {
  const state = new PausedState(recorder.snapshot());
  return {
    output: '',
    status: 'interrupted',
    complexity: state.complexity ?? 'simple',
    steps: [],
    revisions: state.revisions,
    usage: { ...usage },
    error: pause,
    interruptions: state.interruptions,
    state,
  };
}

/**
 * Takes the answers out of `state` (decisions recorded on it, then
 * `responses`, which win) and returns what delivers them to the gate or the
 * bus once the resume owns the run.
 * @throws ConfigError for an answer to an interrupt the state does not hold,
 *   or one nothing can take.
 */
export function takeAnswers(
  state: RunState,
  responses: Record<string, InterruptResponse> | undefined,
  options: Pick<OrchestratorSettings, 'approvals' | 'interrupts'>,
): () => void {
  const answers = { ...state.decisions, ...responses };
  delete state.decisions;
  const deliver = deliveryTo(state.runId, options);
  const deliveries = Object.entries(answers).map(([id, response]) => {
    const interrupt = state.interrupts.find((i) => i.id === id);
    if (!interrupt) throw new ConfigError(`resume: no pending interrupt "${id}" in the saved state`);
    return deliver(interrupt, response);
  });
  const scopes = state.approvedScopes ?? [];
  return () => {
    if (scopes.length) options.approvals?.restoreScopes(scopes, state.runId);
    for (const deliver of deliveries) deliver();
  };
}

/**
 * How answers to run `runId`'s interrupts are delivered: for each interrupt
 * and its answer, the delivery. @throws ConfigError (from the delivery) when nothing can take it.
 */
function deliveryTo(
  runId: string,
  { approvals, interrupts }: Pick<OrchestratorSettings, 'approvals' | 'interrupts'>,
): (interrupt: Pick<InterruptView, 'id' | 'toolCallId'>, response: InterruptResponse) => () => void {
  return ({ id, toolCallId }, response) => {
    if (toolCallId && approvals) return () => approvals.answer(toolCallId, response, runId);
    if (interrupts) return () => void interrupts.respond(id, response);
    throw new ConfigError(
      'resume: answering interrupts needs the `safety.approvals` gate or a `safety.interrupts` bus',
    );
  };
}
