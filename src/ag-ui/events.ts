/**
 * The AG-UI events tandem emits, declared here as plain JSON shapes (they
 * match `@ag-ui/core` 1.x's `EventSchemas`), so the subpath has no dependency.
 * @module
 */

/** A JSON Patch operation (RFC 6902), as `STATE_DELTA` carries it. */
export type AgUiPatchOp =
  | { op: 'add' | 'replace'; path: string; value: unknown }
  | { op: 'remove'; path: string };

/** Something a run needs from outside before it can continue (AG-UI `Interrupt`). */
export interface AgUiInterrupt {
  id: string;
  reason: string;
  message?: string;
  toolCallId?: string;
  metadata?: Record<string, unknown>;
}

/** Why a run ended (`RUN_FINISHED.outcome`). */
export type AgUiOutcome =
  | { type: 'success'; pendingToolCallIds?: string[] }
  | { type: 'interrupt'; interrupts: AgUiInterrupt[] };

/** The state tandem keeps in sync on the client: the plan and the checklist. */
export interface AgUiTandemState {
  plan?: {
    title?: string;
    summary?: string;
    revision?: number;
    steps: Array<{ id: string; description: string; dependsOn: string[]; status: string }>;
  };
  checklist?: { content: string; checked: number; total: number };
}

/** An AG-UI event as tandem emits it. */
export type AgUiEvent =
  | { type: 'RUN_STARTED'; threadId: string; runId: string }
  | { type: 'RUN_FINISHED'; threadId: string; runId: string; result?: unknown; outcome: AgUiOutcome }
  | { type: 'RUN_ERROR'; message: string; code?: string }
  | { type: 'TEXT_MESSAGE_START'; messageId: string; role: 'assistant' }
  | { type: 'TEXT_MESSAGE_CONTENT'; messageId: string; delta: string }
  | { type: 'TEXT_MESSAGE_END'; messageId: string }
  | { type: 'REASONING_START'; messageId: string }
  | { type: 'REASONING_MESSAGE_START'; messageId: string; role: 'reasoning' }
  | { type: 'REASONING_MESSAGE_CONTENT'; messageId: string; delta: string }
  | { type: 'REASONING_MESSAGE_END'; messageId: string }
  | { type: 'REASONING_END'; messageId: string }
  | { type: 'TOOL_CALL_START'; toolCallId: string; toolCallName: string }
  | { type: 'TOOL_CALL_ARGS'; toolCallId: string; delta: string }
  | { type: 'TOOL_CALL_END'; toolCallId: string }
  | { type: 'TOOL_CALL_RESULT'; messageId: string; toolCallId: string; content: string; role: 'tool' }
  | { type: 'STEP_STARTED'; stepName: string }
  | { type: 'STEP_FINISHED'; stepName: string }
  | { type: 'STATE_SNAPSHOT'; snapshot: AgUiTandemState }
  | { type: 'STATE_DELTA'; delta: AgUiPatchOp[] };
