/**
 * `Interruption`: a question a run stopped on, as `result.interruptions`
 * lists it. A run that needs an answer nobody can give live (no interrupt
 * bus) ends `interrupted`; the caller answers each interruption on the
 * result's `state` (`approve` / `reject` / `answer`) and resumes.
 * @module
 */
import type { InterruptView } from '../../core/events.js';

/** What an interruption asks: approval of a tool call, or a question the model put to the user. */
export type InterruptionKind = 'approval' | 'question';

/** A pending question a run stopped on. Plain JSON: it survives `JSON.stringify`. */
export interface Interruption {
  /** Interrupt id: pass it to `state.approve(id)` / `state.reject(id, message)`. */
  id: string;
  kind: InterruptionKind;
  /** The tool whose call is held. */
  toolName: string;
  /** The call's arguments, as the model gave them. */
  args: unknown;
  /** The model's tool-call id. */
  callId: string;
  /** Short question for a UI. */
  title: string;
  message?: string;
  /** Choices of a question with options. */
  options?: string[];
  /** The orchestrator step that stopped on it (orchestrated runs only). */
  stepId?: string;
}

/** The interruption an `interrupt` event's view describes; `undefined` when it holds no tool call. */
export function interruptionFromView(view: InterruptView, stepId?: string): Interruption | undefined {
  if (!view.toolCallId) return undefined;
  const out: Interruption = {
    id: view.id,
    kind: view.kind === 'approval' ? 'approval' : 'question',
    toolName: view.toolName ?? '',
    args: view.args,
    callId: view.toolCallId,
    title: view.title,
  };
  if (view.message !== undefined) out.message = view.message;
  if (view.options !== undefined) out.options = [...view.options];
  if (stepId !== undefined) out.stepId = stepId;
  return out;
}
