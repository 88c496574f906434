/**
 * The input side: an AG-UI `RunAgentInput` as a tandem run's input and
 * history, the frontend's tools as tandem tools, and the answers it carries
 * (tool results of frontend tools, `resume` entries of interrupts).
 * @module
 */
import { TandemError } from '../core/errors.js';
import type { AssistantMessage, Message, ToolCallPart } from '../core/messages.js';
import type { JsonSchema } from '../model/types.js';
import { jsonSchema } from '../tools/json-schema.js';
import { defineTool, type Tool } from '../tools/types.js';

/** An AG-UI message, as far as tandem reads it (`@ag-ui/core`'s `Message` fits). */
export interface AgUiMessageLike {
  id: string;
  role: string;
  content?: unknown;
  toolCalls?: Array<{ id: string; type?: string; function: { name: string; arguments: string } }>;
  toolCallId?: string;
  error?: string;
}

/** A tool the frontend offers (`RunAgentInput.tools`). */
export interface AgUiToolLike {
  name: string;
  description: string;
  parameters?: unknown;
}

/** An answer to an interrupt (`RunAgentInput.resume`). */
export interface AgUiResumeEntryLike {
  interruptId: string;
  status: 'resolved' | 'cancelled';
  payload?: unknown;
}

/** An AG-UI `RunAgentInput` (the request body `HttpAgent` posts). */
export interface AgUiRunInput {
  threadId: string;
  runId: string;
  messages: AgUiMessageLike[];
  tools?: AgUiToolLike[];
  context?: Array<{ description: string; value: string }>;
  state?: unknown;
  forwardedProps?: unknown;
  resume?: AgUiResumeEntryLike[];
}

/** What {@link fromAgUiMessages} reads. */
export interface AgUiRequestInput {
  /** The last user message's text; absent when the request answers (tool results, `resume`). */
  input?: string;
  /** Every message before it, as tandem messages (system and developer messages are the server's business). */
  history: Message[];
  /** Results of frontend tool calls after the last user message, by tool call id. */
  toolResults: Map<string, string>;
}

/** Errors of the AG-UI endpoint: a request it cannot read. */
export class AgUiError extends TandemError<'invalid_request' | 'nothing_to_resume'> {
  static override readonly brand: string = 'AgUiError';
}

/** Reads `RunAgentInput.messages`: the new input, the history before it, and the tool results the client sent. */
export function fromAgUiMessages(messages: readonly AgUiMessageLike[]): AgUiRequestInput {
  let lastUser = messages.length - 1;
  while (lastUser >= 0 && messages[lastUser]!.role !== 'user') lastUser -= 1;
  const tail = messages.slice(lastUser + 1);
  const toolResults = new Map<string, string>();
  for (const m of tail) if (m.role === 'tool' && m.toolCallId) toolResults.set(m.toolCallId, toolText(m));
  const last = messages[messages.length - 1];
  if (last?.role === 'user') {
    return { input: textOf(last.content), history: toHistory(messages.slice(0, -1)), toolResults };
  }
  return { history: toHistory(messages), toolResults };
}

/**
 * The frontend's tools as tandem tools. A call does not run on the server:
 * in an agent that pauses on interrupts (`safety: { pauseOnInterrupt: true }`)
 * it ends the run with the call pending, the client executes it and sends its
 * result in the next request, and the resumed run gives the model that result.
 */
export function frontendTools(tools: readonly AgUiToolLike[] = []): Tool[] {
  return tools.map((tool) =>
    defineTool({
      name: tool.name,
      description: tool.description,
      parameters: jsonSchema(
        isObject(tool.parameters) ? (tool.parameters as JsonSchema) : { type: 'object' },
      ),
      question: () => ({ title: `Run ${tool.name} in the client` }),
      execute() {
        // Reached only when the agent asks live instead of pausing: the client cannot be reached from here.
        throw new AgUiError(
          'invalid_request',
          `Frontend tool ${tool.name} runs in the client: give the agent safety.pauseOnInterrupt: true`,
        );
      },
    }),
  );
}

function toHistory(messages: readonly AgUiMessageLike[]): Message[] {
  return messages.flatMap((m): Message[] => {
    if (m.role === 'user') return [{ role: 'user', content: textOf(m.content) }];
    if (m.role === 'tool' && m.toolCallId) {
      const content = toolText(m);
      const part = { type: 'tool_result' as const, toolCallId: m.toolCallId, toolName: '', content };
      return [{ role: 'tool', content: [m.error ? { ...part, isError: true } : part] }];
    }
    if (m.role !== 'assistant') return [];
    const turn: AssistantMessage = { role: 'assistant', content: [] };
    const text = textOf(m.content);
    if (text) turn.content.push({ type: 'text', text });
    for (const call of m.toolCalls ?? []) {
      const part: ToolCallPart = {
        type: 'tool_call',
        id: call.id,
        name: call.function.name,
        arguments: call.function.arguments,
      };
      turn.content.push(part);
    }
    return turn.content.length > 0 ? [turn] : [];
  });
}

/** Names the tool of each result from the call before it: tandem's history carries both. */
export function nameToolResults(history: Message[]): Message[] {
  const names = new Map<string, string>();
  for (const m of history) {
    if (m.role === 'assistant')
      for (const p of m.content) if (p.type === 'tool_call') names.set(p.id, p.name);
    if (m.role === 'tool') for (const p of m.content) p.toolName ||= names.get(p.toolCallId) ?? 'tool';
  }
  return history;
}

function toolText(m: AgUiMessageLike): string {
  return m.error ?? textOf(m.content);
}

/** Text content: a string, or the text parts of multimodal content. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { type?: string; text?: unknown }) =>
      part?.type === 'text' && typeof part.text === 'string' ? part.text : '',
    )
    .join('');
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
