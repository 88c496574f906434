/**
 * The chunks of the AI SDK's UI message stream (protocol `v1`, read by `ai`
 * 5, 6 and 7's `readUIMessageStream` and `useChat`), declared here so the
 * subpath needs no `ai` import: the shapes match `ai`'s `UIMessageChunk`.
 * @module
 */

/** Header a UI message stream response carries; `useChat` checks it. */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-vercel-ai-ui-message-stream': 'v1',
  'x-accel-buffering': 'no',
};

/** Why a message ended, as the AI SDK names it. */
export type UIFinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';

/** The `data-*` parts a tandem run streams, by name (the part type is `data-<name>`). */
export interface TandemUIDataTypes {
  /** The plan (`plan_overview`, `plan_revised`); one part, id `plan`, updated in place. */
  plan: { title?: string; summary?: string; revision?: number; steps: unknown[] };
  /** One plan step's progress; one part per step, id = the step id. */
  step: {
    stepId: string;
    status: 'running' | 'completed' | 'failed';
    description?: string;
    attempt?: number;
    completed?: number;
    total?: number;
    error?: { kind: string; message: string };
  };
  /** The checklist (`todo_update`); one part, id `checklist`. */
  checklist: { content: string; checked: number; total: number };
  /** The run's running usage total (`usage`); one part, id `usage`. */
  usage: { model: string; total: unknown };
}

/** A `data-*` chunk of {@link TandemUIDataTypes}. */
export type TandemDataChunk = {
  [K in keyof TandemUIDataTypes]: { type: `data-${K}`; id: string; data: TandemUIDataTypes[K] };
}[keyof TandemUIDataTypes];

/** One chunk of a UI message stream, as tandem writes them. */
export type UIChunk =
  | { type: 'start'; messageId?: string }
  | { type: 'start-step' }
  | { type: 'finish-step' }
  | { type: 'text-start' | 'text-end' | 'reasoning-start' | 'reasoning-end'; id: string }
  | { type: 'text-delta' | 'reasoning-delta'; id: string; delta: string }
  | { type: 'tool-input-start'; toolCallId: string; toolName: string }
  | { type: 'tool-input-available'; toolCallId: string; toolName: string; input: unknown }
  | { type: 'tool-approval-request'; approvalId: string; toolCallId: string }
  | { type: 'tool-output-available'; toolCallId: string; output: unknown }
  | { type: 'tool-output-error'; toolCallId: string; errorText: string }
  | { type: 'tool-output-denied'; toolCallId: string }
  | { type: 'source-url'; sourceId: string; url: string; title?: string }
  | TandemDataChunk
  | { type: 'error'; errorText: string }
  | { type: 'finish'; finishReason?: UIFinishReason };
