/**
 * The input side: a request body of AI SDK `UIMessage`s as a tandem run's
 * input and history, and the approvals `useChat` answered.
 * @module
 */
import type {
  AssistantMessage,
  MediaPart,
  Message,
  TextPart,
  ToolMessage,
  ToolResultPart,
} from '../core/messages.js';
import type { UserContent } from '../core/run-input.js';
import type { PausedState } from '../state/paused-state.js';

/** A part of a `UIMessage`, as far as tandem reads it (the AI SDK's `UIMessagePart` fits). */
export interface UIPartLike {
  type: string;
  text?: string;
  mediaType?: string;
  url?: string;
  filename?: string;
  toolCallId?: string;
  toolName?: string;
  state?: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  approval?: { id: string; approved?: boolean; reason?: string };
}

/** A `UIMessage` (the AI SDK's type fits). */
export interface UIMessageLike {
  id?: string;
  role: 'system' | 'user' | 'assistant';
  parts: readonly UIPartLike[];
}

/** A tool approval `useChat` answered (`addToolApprovalResponse`). */
export interface UIApprovalAnswer {
  /** The approval id: the interrupt id tandem sent as `approvalId`. */
  approvalId: string;
  toolCallId: string;
  approved: boolean;
  reason?: string;
}

/** What {@link fromUIMessages} reads from a request. */
export interface UIRequestInput {
  /** The last user message's content; absent when the request answers approvals (the last message is the assistant's). */
  input?: UserContent;
  /** Every message before it, as tandem messages (system messages are the server's business and skipped). */
  history: Message[];
  /** The approvals answered in the last assistant message. */
  approvals: UIApprovalAnswer[];
  /** Id of the last assistant message, to continue it (`messageId` of the stream) when answering approvals. */
  messageId?: string;
}

/** Reads a request body's `UIMessage`s: the new input, the history before it, the answered approvals. */
export function fromUIMessages(messages: readonly UIMessageLike[]): UIRequestInput {
  const last = messages[messages.length - 1];
  if (last?.role === 'user') {
    return { input: userContent(last), history: toHistory(messages.slice(0, -1)), approvals: [] };
  }
  const approvals = (last?.parts ?? []).flatMap((part): UIApprovalAnswer[] => {
    const { approval, toolCallId } = part;
    if (part.state !== 'approval-responded' || !approval || !toolCallId) return [];
    const answer: UIApprovalAnswer = {
      approvalId: approval.id,
      toolCallId,
      approved: approval.approved === true,
    };
    if (approval.reason !== undefined) answer.reason = approval.reason;
    return [answer];
  });
  return { history: toHistory(messages), approvals, messageId: last?.id };
}

/**
 * Records the answers on the paused run's state (`approve` / `reject` with
 * the reason the user gave) and returns it; resume it next, and give the
 * same answers to the resumed run's stream as `approvals`.
 * @throws InterruptError when an answer names an interrupt the state does not hold, or one answered before.
 */
export function answerApprovals(state: PausedState, approvals: readonly UIApprovalAnswer[]): PausedState {
  for (const answer of approvals) {
    if (answer.approved) state.approve(answer.approvalId);
    else state.reject(answer.approvalId, answer.reason);
  }
  return state;
}

function userContent(message: UIMessageLike): UserContent {
  const parts = message.parts.flatMap((part): Array<TextPart | MediaPart> => {
    if (part.type === 'text' && part.text !== undefined) return [{ type: 'text', text: part.text }];
    if (part.type === 'file' && part.url && part.mediaType) {
      const type = part.mediaType.startsWith('image/') ? 'image' : 'file';
      const media: MediaPart = { type, mediaType: part.mediaType, url: part.url };
      if (part.filename) media.filename = part.filename;
      return [media];
    }
    return [];
  });
  return parts.every((p) => p.type === 'text') ? parts.map((p) => (p as TextPart).text).join('') : parts;
}

function toHistory(messages: readonly UIMessageLike[]): Message[] {
  return messages.flatMap((message): Message[] => {
    if (message.role === 'user') return [{ role: 'user', content: userContent(message) }];
    if (message.role === 'assistant') return assistantTurns(message.parts);
    return [];
  });
}

/** An assistant `UIMessage` is one message per step: its text, reasoning and calls, then the calls' results. */
function assistantTurns(parts: readonly UIPartLike[]): Message[] {
  const out: Message[] = [];
  let turn: AssistantMessage = { role: 'assistant', content: [] };
  let results: ToolResultPart[] = [];
  const flush = () => {
    if (turn.content.length > 0) out.push(turn);
    if (results.length > 0) out.push({ role: 'tool', content: results } satisfies ToolMessage);
    turn = { role: 'assistant', content: [] };
    results = [];
  };
  for (const part of parts) {
    if (part.type === 'step-start') flush();
    else if (part.type === 'text' && part.text) turn.content.push({ type: 'text', text: part.text });
    else if (part.type === 'reasoning' && part.text)
      turn.content.push({ type: 'reasoning', text: part.text });
    else if (part.toolCallId && (part.type.startsWith('tool-') || part.type === 'dynamic-tool')) {
      const result = toolResult(part);
      if (!result) continue; // a call without an outcome cannot be replayed to a model
      turn.content.push({
        type: 'tool_call',
        id: result.toolCallId,
        name: result.toolName,
        arguments: JSON.stringify(part.input ?? {}),
      });
      results.push(result);
    }
  }
  flush();
  return out;
}

function toolResult(part: UIPartLike): ToolResultPart | undefined {
  const toolName = part.type === 'dynamic-tool' ? (part.toolName ?? '') : part.type.slice('tool-'.length);
  const base = { type: 'tool_result' as const, toolCallId: part.toolCallId!, toolName };
  if (part.state === 'output-available') {
    const content = typeof part.output === 'string' ? part.output : JSON.stringify(part.output ?? null);
    return { ...base, content };
  }
  if (part.state === 'output-error') return { ...base, content: part.errorText ?? '', isError: true };
  if (part.state === 'output-denied') {
    return {
      ...base,
      content: `User denied execution of ${toolName}. The tool was not executed.`,
      isError: true,
    };
  }
  return undefined;
}
