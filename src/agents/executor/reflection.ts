/**
 * Reflection (HA §29): before the executor returns an answer it reached with
 * tools, a cheap model judges whether the answer fully addresses the request;
 * a `RETRY` verdict sends its note back to the executor's model as feedback.
 * The judge sees a bounded digest — the request, the answer and the last tool
 * calls of this execution, each capped — never the whole history.
 * @module
 */
import { ConfigError, errorMessage, isAbortError } from '../../core/errors.js';
import type { Emitter } from '../../core/events.js';
import { type Message, type ToolResultPart, textOf, type UserMessage } from '../../core/messages.js';
import { addUsage, type Usage } from '../../core/usage.js';
import { answeringModelId, type ModelInvoker } from '../../model/invoke.js';
import { directInvoker } from '../../model/resilience/resilient-invoker.js';
import type { ChatModel } from '../../model/types.js';

/** Options of the executor's reflection step (`ExecutorOptions.reflection`). */
export interface ReflectionOptions {
  /** The judging model; a small, cheap one is enough. */
  model: ChatModel;
  /** How the judge is called (retry, fallback). Default: `directInvoker(model)`. */
  invoker?: ModelInvoker;
  /** Reflections per execution. Default 1. */
  maxReflections?: number;
  /** Tool turns an execution must have made before its answer is judged. Default 1. */
  minToolTurns?: number;
  /** The judge's system prompt. Default {@link REFLECTION_PROMPT}. */
  prompt?: string;
}

/** Reflection options after defaults, validated. */
export interface ReflectionSettings {
  invoker: ModelInvoker;
  maxReflections: number;
  minToolTurns: number;
  prompt: string;
}

/** The judge's verdict on an answer. */
export type ReflectionVerdict = { verdict: 'pass' } | { verdict: 'retry'; feedback: string };

/** The judge's default system prompt. */
export const REFLECTION_PROMPT = [
  "You review the final answer an AI assistant gave to a user's request.",
  'Judge whether the answer fully addresses the request, given the tool calls the assistant made and their results.',
  'Do not answer the request yourself. Reply with exactly one line:',
  'PASS',
  'or',
  'RETRY: <what is missing or wrong>',
].join('\n');

/** Caps on what the judge is shown, in characters (tool calls: how many, from the end). */
export const REFLECTION_LIMITS = {
  request: 2_000,
  answer: 4_000,
  toolCalls: 10,
  toolItem: 200,
  feedback: 1_000,
} as const;

const FEEDBACK_PREFIX = '[Reflection feedback] Your previous response was evaluated as incomplete. Note: ';
const FALLBACK_FEEDBACK = 'The answer does not fully address the request.';
const VERDICT = /^(PASS|RETRY)\b[\s*_`]*[:\-–—]?\s*([\s\S]*)$/i;

/**
 * Applies defaults and validates.
 * @throws ConfigError for a missing model or a count out of range.
 */
export function resolveReflection(options: ReflectionOptions): ReflectionSettings {
  if (!options.model) throw new ConfigError('Executor: `reflection.model` is required');
  const settings: ReflectionSettings = {
    invoker: options.invoker ?? directInvoker(options.model),
    maxReflections: options.maxReflections ?? 1,
    minToolTurns: options.minToolTurns ?? 1,
    prompt: options.prompt ?? REFLECTION_PROMPT,
  };
  for (const name of ['maxReflections', 'minToolTurns'] as const) {
    const value = settings[name];
    if (!Number.isInteger(value) || value < 0) {
      throw new ConfigError(`Executor: \`reflection.${name}\` must be an integer ≥ 0, got ${value}`);
    }
  }
  return settings;
}

/** Reads the judge's reply; `undefined` when it is neither `PASS` nor `RETRY`. */
export function parseReflection(text: string): ReflectionVerdict | undefined {
  const match = VERDICT.exec(text.trim().replace(/^[*_`#>\s]+/, ''));
  if (!match) return undefined;
  if (match[1]!.toUpperCase() === 'PASS') return { verdict: 'pass' };
  const note = match[2]!
    .trim()
    .replace(/[*_`]+$/, '')
    .trim();
  return { verdict: 'retry', feedback: cap(note || FALLBACK_FEEDBACK, REFLECTION_LIMITS.feedback) };
}

/** The user message that hands the judge's note back to the executor's model. */
export function reflectionFeedback(feedback: string): UserMessage {
  return { role: 'user', content: `${FEEDBACK_PREFIX}${feedback}` };
}

/** What {@link reflect} judges. */
export interface ReflectionInput {
  /** The conversation; only `messages[firstNew..]` (this execution's part) is digested. */
  messages: readonly Message[];
  firstNew: number;
  answer: string;
  signal: AbortSignal;
  emit: Emitter;
  /** The execution's usage; the judge's is added to it. */
  usage: Usage;
}

/**
 * One judge call, bracketed by a `stage` `reflection` pair. A failed call or
 * an unreadable reply counts as `PASS` (the answer stands); an abort is
 * rethrown.
 */
export async function reflect(
  settings: ReflectionSettings,
  input: ReflectionInput,
): Promise<ReflectionVerdict> {
  const { emit, signal, usage } = input;
  emit.emit('stage', { name: 'reflection', status: 'running' });
  try {
    const response = await settings.invoker.invoke(
      { system: settings.prompt, messages: [{ role: 'user', content: reflectionDigest(input) }] },
      { signal, emit, stream: false },
    );
    addUsage(usage, response.usage);
    emit.emit('usage', {
      model: answeringModelId(response, settings.invoker),
      usage: response.usage,
      total: { ...usage },
    });
    const verdict: ReflectionVerdict = parseReflection(textOf(response.message)) ?? { verdict: 'pass' };
    emit.emit('stage', {
      name: 'reflection',
      status: 'completed',
      detail: verdict.verdict === 'pass' ? 'PASS' : 'RETRY',
    });
    return verdict;
  } catch (error) {
    emit.emit('stage', { name: 'reflection', status: 'failed', detail: errorMessage(error) });
    if (signal.aborted || isAbortError(error)) throw error;
    return { verdict: 'pass' };
  }
}

/** The judge's user message: request, answer and the last tool calls, each capped. */
export function reflectionDigest(input: Pick<ReflectionInput, 'messages' | 'firstNew' | 'answer'>): string {
  const { messages, firstNew } = input;
  const limits = REFLECTION_LIMITS;
  const calls = toolDigest(messages, firstNew);
  const sections = [
    `<user_request>\n${cap(requestText(messages, firstNew), limits.request)}\n</user_request>`,
    `<answer>\n${cap(input.answer, limits.answer)}\n</answer>`,
  ];
  if (calls.length > 0) sections.push(`<tool_calls>\n${calls.join('\n')}\n</tool_calls>`);
  return sections.join('\n\n');
}

/** The request this execution answers: the last user message of its input. */
function requestText(messages: readonly Message[], firstNew: number): string {
  for (let i = firstNew - 1; i >= 0; i--) if (messages[i]!.role === 'user') return textOf(messages[i]!);
  return '';
}

/**
 * One line per tool call of this execution, the last {@link REFLECTION_LIMITS}
 * `.toolCalls`, oldest first. Walks back from the end and stops once it has
 * them and their calls, so the cost does not grow with the conversation.
 */
function toolDigest(messages: readonly Message[], firstNew: number): string[] {
  const { toolCalls: max, toolItem } = REFLECTION_LIMITS;
  const results: ToolResultPart[] = [];
  const args = new Map<string, string>();
  for (let i = messages.length - 1; i >= firstNew; i--) {
    const message = messages[i]!;
    if (message.role === 'tool') {
      for (let j = message.content.length - 1; j >= 0 && results.length < max; j--) {
        results.push(message.content[j]!);
      }
    } else if (message.role === 'assistant') {
      for (const part of message.content) if (part.type === 'tool_call') args.set(part.id, part.arguments);
      if (results.length >= max) break;
    }
  }
  const lines: string[] = [];
  for (let i = results.length - 1; i >= 0; i--) {
    const r = results[i]!;
    const call = args.has(r.toolCallId)
      ? `${r.toolName}(${cap(args.get(r.toolCallId)!, toolItem)})`
      : r.toolName;
    lines.push(`- ${call} → ${r.isError ? 'ERROR: ' : ''}${cap(r.content, toolItem)}`);
  }
  return lines;
}

function cap(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
