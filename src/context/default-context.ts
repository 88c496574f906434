/**
 * The Executor's default context management: compression at the seeds'
 * threshold (half the window), the agent's own model summarising. A short
 * conversation pays for none of it: requests pass through untouched, with a
 * running character sum as the only work, until the conversation could be
 * near the threshold; a full context manager takes over from then on.
 * @module
 */
import type { Message } from '../core/messages.js';
import type { CompressHook } from '../model/invoke.js';
import type { ChatModel, ModelRequest } from '../model/types.js';
import { type ContextManager, contextPerConversation, type PrepareInfo } from './context-manager.js';
import { resolveContextWindow } from './model-table.js';

/** The seeds' compression threshold, as a share of the window (hermes `threshold_percent`). */
const THRESHOLD_RATIO = 0.5;
/** What a part that is not text (an image, a file) is taken to weigh, in characters. */
const MEDIA_CHARS = 4_000;

/** What the Executor needs of a context manager. */
export interface DefaultContext {
  prepareRequest(request: ModelRequest, info?: PrepareInfo): Promise<ModelRequest>;
  compressHook: CompressHook;
}

/**
 * A factory of default context managers for `model`, one per conversation.
 * The full manager takes over once the conversation holds as many
 * characters as half the threshold's tokens: a token is at least one
 * character in every script, so that point comes before the threshold.
 */
export function defaultContext(model: ChatModel): () => DefaultContext {
  const handover = Math.floor(resolveContextWindow({ model }) * THRESHOLD_RATIO * 0.5);
  let managers: (() => ContextManager) | undefined;
  const full = () => {
    managers ??= contextPerConversation({ model, summarizer: model, thresholdRatio: THRESHOLD_RATIO });
    return managers();
  };
  return () => new PassThrough(handover, full);
}

/**
 * Whether `context` is a default manager that sends `request` as is, known
 * at once: the executor then calls the model without the async hop of
 * `prepareRequest` (see `callModel`).
 */
export function passesUntouched(context: unknown, request: ModelRequest): boolean {
  return context instanceof PassThrough && context.passes(request);
}

/**
 * One conversation's default manager. A class rather than closures over
 * shared variables: every run waiting on its model holds one, at half the bytes.
 */
class PassThrough implements DefaultContext {
  private manager: ContextManager | undefined;
  private seen: readonly Message[] | undefined;
  private counted = 0;
  private chars = 0;

  constructor(
    private readonly handover: number,
    private readonly full: () => ContextManager,
  ) {}

  prepareRequest(request: ModelRequest, info?: PrepareInfo): Promise<ModelRequest> {
    if (this.passes(request)) return Promise.resolve(request);
    this.manager ??= this.full();
    return this.manager.prepareRequest(request, info);
  }

  /** Whether `request` goes out as is: no full manager yet, and the conversation far from the threshold. */
  passes(request: ModelRequest): boolean {
    if (this.manager) return false;
    const messages = request.messages;
    if (messages !== this.seen || messages.length < this.counted) {
      this.seen = messages;
      this.counted = 0;
      this.chars = 0;
    }
    for (; this.counted < messages.length; this.counted++)
      this.chars += messageChars(messages[this.counted]!);
    return this.chars + systemChars(request) < this.handover;
  }

  /** A field, not a method: the executor hands it on detached from this object. */
  readonly compressHook: CompressHook = (request, reason) => {
    this.manager ??= this.full();
    return this.manager.compressHook(request, reason);
  };
}

function messageChars(message: Message): number {
  const content: unknown = message.content;
  if (typeof content === 'string') return content.length;
  if (!Array.isArray(content)) return 0;
  let chars = 0;
  for (const part of content as Array<Record<string, unknown>>) chars += partChars(part);
  return chars;
}

function partChars(part: Record<string, unknown>): number {
  if (typeof part.text === 'string') return part.text.length;
  if (typeof part.content === 'string') return part.content.length;
  if (typeof part.arguments === 'string') return part.arguments.length + 50;
  if (Array.isArray(part.content)) {
    let chars = 0;
    for (const inner of part.content as Array<Record<string, unknown>>) chars += partChars(inner);
    return chars;
  }
  return MEDIA_CHARS;
}

function systemChars(request: ModelRequest): number {
  const system: unknown = request.system;
  if (typeof system === 'string') return system.length;
  if (!Array.isArray(system)) return 0;
  let chars = 0;
  for (const part of system as Array<{ text?: unknown }>)
    if (typeof part.text === 'string') chars += part.text.length;
  return chars;
}
