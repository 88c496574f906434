/**
 * Trajectories: a run's conversation in the formats fine-tuning pipelines
 * read — OpenAI's chat format (`{ messages, tools }`, one JSON object a line)
 * or ShareGPT (`{ conversations: [{ from, value }] }`, with tool calls in the
 * Hermes function-calling tags) — so good runs become training data.
 * @module
 */
import { mediaBase64 } from '../core/media.js';
import type { AssistantMessage, MediaPart, Message, TextPart, ToolMessage } from '../core/messages.js';
import { type Tool, toolSpec } from './types.js';

/** Options of {@link toTrajectory}. */
export interface TrajectoryOptions {
  /** `openai` (default): chat fine-tuning format; `sharegpt`: `conversations` with `from`/`value`. */
  format?: 'openai' | 'sharegpt';
  /** The system prompt the run had, placed first. */
  system?: string;
  /** The tools the run offered: listed as `tools` (openai) or in the system turn (sharegpt). */
  tools?: readonly Tool[];
  /** Reasoning parts: `drop` (default) or `inline` as `<think>…</think>` before the reply text. */
  reasoning?: 'drop' | 'inline';
}

/** One training example. */
export type TrajectoryRecord =
  | { messages: Record<string, unknown>[]; tools?: Record<string, unknown>[] }
  | { conversations: Array<{ from: 'system' | 'human' | 'gpt' | 'tool'; value: string }> };

/** One conversation (e.g. `result.messages`) as a training example. */
export async function toTrajectory(
  messages: readonly Message[],
  options: TrajectoryOptions = {},
): Promise<TrajectoryRecord> {
  const specs = await Promise.all((options.tools ?? []).map(toolSpec));
  if (options.format === 'sharegpt') return shareGpt(messages, options, specs);
  const out: Record<string, unknown>[] = options.system ? [{ role: 'system', content: options.system }] : [];
  for (const message of messages) out.push(...openAiMessages(message, options));
  const record: TrajectoryRecord = { messages: out };
  if (specs.length > 0) {
    record.tools = specs.map((s) => ({
      type: 'function',
      function: { name: s.name, description: s.description, parameters: s.parameters },
    }));
  }
  return record;
}

/** Conversations as JSONL: one training example a line. */
export async function toTrajectoryJSONL(
  conversations: ReadonlyArray<readonly Message[]>,
  options: TrajectoryOptions = {},
): Promise<string> {
  const lines = await Promise.all(conversations.map((c) => toTrajectory(c, options)));
  return lines.map((line) => `${JSON.stringify(line)}\n`).join('');
}

function openAiMessages(message: Message, options: TrajectoryOptions): Record<string, unknown>[] {
  if (message.role === 'tool') {
    return message.content.map((r) => ({ role: 'tool', tool_call_id: r.toolCallId, content: r.content }));
  }
  if (message.role === 'user') {
    if (typeof message.content === 'string') return [{ role: 'user', content: message.content }];
    return [{ role: 'user', content: message.content.map(openAiPart) }];
  }
  const calls = message.content.filter((p) => p.type === 'tool_call');
  const entry: Record<string, unknown> = { role: 'assistant', content: replyText(message, options) || null };
  if (calls.length > 0) {
    entry.tool_calls = calls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    }));
  }
  return [entry];
}

function openAiPart(part: TextPart | MediaPart): Record<string, unknown> {
  if (part.type === 'text') return { type: 'text', text: part.text };
  if (part.type === 'image') {
    const url = part.url ?? `data:${part.mediaType};base64,${mediaBase64(part.data ?? '')}`;
    return { type: 'image_url', image_url: { url } };
  }
  return { type: 'text', text: fileNote(part) };
}

function shareGpt(
  messages: readonly Message[],
  options: TrajectoryOptions,
  specs: ReadonlyArray<{ name: string; description: string; parameters: unknown }>,
): TrajectoryRecord {
  const conversations: Array<{ from: 'system' | 'human' | 'gpt' | 'tool'; value: string }> = [];
  const tools = specs.length > 0 ? `<tools>\n${JSON.stringify(specs)}\n</tools>` : '';
  const system = [options.system, tools].filter(Boolean).join('\n\n');
  if (system) conversations.push({ from: 'system', value: system });
  for (const message of messages) {
    if (message.role === 'user') conversations.push({ from: 'human', value: userText(message.content) });
    else if (message.role === 'tool') conversations.push({ from: 'tool', value: toolResponses(message) });
    else conversations.push({ from: 'gpt', value: gptValue(message, options) });
  }
  return { conversations };
}

function gptValue(message: AssistantMessage, options: TrajectoryOptions): string {
  const calls = message.content
    .filter((p) => p.type === 'tool_call')
    .map(
      (c) => `<tool_call>\n${JSON.stringify({ name: c.name, arguments: parsed(c.arguments) })}\n</tool_call>`,
    );
  return [replyText(message, options), ...calls].filter(Boolean).join('\n');
}

function toolResponses(message: ToolMessage): string {
  return message.content
    .map(
      (r) => `<tool_response>\n${JSON.stringify({ name: r.toolName, content: r.content })}\n</tool_response>`,
    )
    .join('\n');
}

/** The reply's text, with its reasoning in `<think>` first when asked. */
function replyText(message: AssistantMessage, options: TrajectoryOptions): string {
  const text = message.content
    .filter((p) => p.type === 'text')
    .map((p) => p.text)
    .join('');
  if (options.reasoning !== 'inline') return text;
  const reasoning = message.content
    .filter((p) => p.type === 'reasoning')
    .map((p) => p.text)
    .join('');
  if (!reasoning) return text;
  return text ? `<think>\n${reasoning}\n</think>\n\n${text}` : `<think>\n${reasoning}\n</think>`;
}

function userText(content: string | Array<TextPart | MediaPart>): string {
  if (typeof content === 'string') return content;
  return content.map((p) => (p.type === 'text' ? p.text : fileNote(p))).join('\n');
}

function fileNote(part: MediaPart): string {
  return `[${part.type}: ${part.filename ?? part.mediaType}]`;
}

/** Arguments as the JSON the model meant; text that is not JSON stays text. */
function parsed(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}
