/**
 * Turns a Chat Completions SSE stream into {@link ModelStreamPart}s,
 * tolerating what real servers send: comments, ids changing mid-stream,
 * `event: error` frames, errors inside normal chunks, tool-call fragments
 * repeating `id: ""`, whole tool calls in one chunk, `choices: []` usage and
 * Azure prompt-filter chunks, with or without `[DONE]`.
 * @module
 */
import { ModelError } from '../../core/errors.js';
import { emptyUsage, type Usage } from '../../core/usage.js';
import type { ModelStreamPart } from '../../model/types.js';
import { malformedEventError, parseEventJSON, type SSEEvent } from '../shared/sse.js';
import { argumentsText, inlineError, mapFinishReason, mapUsage, type ReplyContext } from './chat-response.js';
import type { WireChunk, WireToolCallDelta } from './chat-wire.js';
import { ThinkTagSplitter } from './think-tags.js';

/** Folds chunks into stream parts; one instance per stream. */
class ChunkReader {
  responseId: string | undefined;
  finishReason: string | undefined;
  usage: Usage | undefined;
  hasOutput = false;
  private hasToolCalls = false;
  private lastIndex = 0;
  private nextIndex = 0;
  private readonly indexById = new Map<string, number>();
  private readonly thinkTags: ThinkTagSplitter | undefined;

  constructor(private readonly ctx: ReplyContext) {
    if (ctx.thinkTags) this.thinkTags = new ThinkTagSplitter();
  }

  *read(chunk: WireChunk): Generator<ModelStreamPart> {
    if (chunk.error) throw inlineError(chunk.error, this.ctx, this.hasOutput);
    if (chunk.id && !this.responseId) this.responseId = chunk.id;
    if (chunk.usage) this.usage = mapUsage(chunk.usage);
    // Only the first choice is read: tandem never asks for n > 1.
    const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0);
    if (!choice) return;
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    const delta = choice.delta;
    if (!delta) return;
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (reasoning) {
      this.hasOutput = true;
      yield { type: 'reasoning-delta', delta: reasoning };
    }
    const text = delta.content ?? delta.refusal;
    if (text) {
      this.hasOutput = true;
      yield* this.textParts(text);
    }
    for (const call of delta.tool_calls ?? []) {
      this.hasOutput = true;
      this.hasToolCalls = true;
      const part: ModelStreamPart = {
        type: 'tool-call-delta',
        index: this.indexOf(call),
        argsDelta: argumentsText(call.function),
      };
      if (call.id) part.id = call.id;
      if (call.function?.name) part.name = call.function.name;
      yield part;
    }
  }

  /** What the stream still held when it ended (an unclosed `<think>` is reasoning). */
  *flush(): Generator<ModelStreamPart> {
    const rest = this.thinkTags?.end();
    if (rest?.reasoning) yield { type: 'reasoning-delta', delta: rest.reasoning };
    if (rest?.text) yield { type: 'text-delta', delta: rest.text };
  }

  finish(): ModelStreamPart {
    const part: ModelStreamPart = {
      type: 'finish',
      finishReason: mapFinishReason(this.finishReason, this.hasToolCalls),
      usage: this.usage ?? emptyUsage(),
    };
    if (this.responseId) part.responseId = this.responseId;
    return part;
  }

  private *textParts(text: string): Generator<ModelStreamPart> {
    if (!this.thinkTags) {
      yield { type: 'text-delta', delta: text };
      return;
    }
    const split = this.thinkTags.push(text);
    if (split.reasoning) yield { type: 'reasoning-delta', delta: split.reasoning };
    if (split.text) yield { type: 'text-delta', delta: split.text };
  }

  // Servers that omit `index` are keyed by call id; id-less fragments continue the last call.
  private indexOf(call: WireToolCallDelta): number {
    let index: number;
    if (typeof call.index === 'number') index = call.index;
    else if (call.id) index = this.indexById.get(call.id) ?? this.nextIndex;
    else index = this.lastIndex;
    if (call.id && !this.indexById.has(call.id)) this.indexById.set(call.id, index);
    this.lastIndex = index;
    this.nextIndex = Math.max(this.nextIndex, index + 1);
    return index;
  }
}

function parseChunk(data: string, model: string): WireChunk {
  const parsed = parseEventJSON(data, model, 'chunk');
  if (parsed !== null && typeof parsed === 'object') return parsed as WireChunk;
  throw malformedEventError(data, model, { unit: 'chunk' });
}

/**
 * Stream parts from the SSE events of a Chat Completions stream, ending with
 * a `finish` part. Errors the server sends mid-stream are thrown as
 * {@link ModelError}s; a stream that ends with neither `[DONE]` nor a finish
 * reason was cut off and throws a retryable `connection` error.
 */
export async function* parseChatStream(
  events: AsyncIterable<SSEEvent>,
  ctx: ReplyContext,
): AsyncGenerator<ModelStreamPart> {
  const reader = new ChunkReader(ctx);
  const model = `${ctx.provider}:${ctx.model}`;
  let done = false;
  for await (const event of events) {
    const data = event.data.trim();
    // Empty frames are keep-alives some servers send between chunks.
    if (data === '') continue;
    if (data === '[DONE]') {
      done = true;
      break;
    }
    const chunk = parseChunk(event.data, model);
    if (event.event === 'error') {
      throw inlineError((chunk as { error?: unknown }).error ?? chunk, ctx, reader.hasOutput);
    }
    yield* reader.read(chunk);
  }
  if (!done && reader.finishReason === undefined) {
    throw new ModelError('connection', `${model}: stream ended before the reply was complete`, { model });
  }
  yield* reader.flush();
  yield reader.finish();
}
