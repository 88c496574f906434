/**
 * Bridges between streamed and whole replies, so a model that implements only
 * `generate` or only `stream` serves both.
 * @module
 */
import { ModelError } from '../core/errors.js';
import type { ReasoningPart, TextPart, ToolCallPart } from '../core/messages.js';
import { emptyUsage } from '../core/usage.js';
import type { CallOptions, ChatModel, ModelRequest, ModelResponse, ModelStreamPart } from './types.js';

interface PendingCall {
  index: number;
  id: string;
  name: string;
  args: string;
  complete: boolean;
  providerMetadata?: ToolCallPart['providerMetadata'];
  order: number;
}

/**
 * Folds stream parts into a {@link ModelResponse}: text and reasoning deltas
 * are joined per block, tool-call argument deltas are joined by index (a
 * later fragment repeating `id: ""` keeps the first id), and a complete
 * `tool-call` part replaces its deltas.
 */
export class StreamAggregator {
  private readonly content: Array<TextPart | ReasoningPart | ToolCallPart | PendingCall> = [];
  private current: TextPart | ReasoningPart | undefined;
  private currentId: string | undefined;
  private readonly calls = new Map<number, PendingCall>();
  private nextAutoIndex = 1_000_000;
  private finished: Extract<ModelStreamPart, { type: 'finish' }> | undefined;

  /** Adds one part. */
  push(part: ModelStreamPart): void {
    switch (part.type) {
      case 'text-delta': {
        if (part.delta === '') return;
        const cur = this.current;
        if (cur?.type === 'text' && this.currentId === part.id) cur.text += part.delta;
        else this.open({ type: 'text', text: part.delta }, part.id);
        return;
      }
      case 'reasoning-delta': {
        const cur = this.current;
        if (cur?.type === 'reasoning' && this.currentId === part.id) {
          cur.text += part.delta;
        } else {
          if (part.delta === '' && !part.signature && !part.redacted && !part.providerMetadata) return;
          this.open({ type: 'reasoning', text: part.delta }, part.id);
        }
        const r = this.current as ReasoningPart;
        if (part.signature) r.signature = (r.signature ?? '') + part.signature;
        if (part.redacted) r.redacted = (r.redacted ?? '') + part.redacted;
        if (part.providerMetadata) r.providerMetadata = { ...r.providerMetadata, ...part.providerMetadata };
        return;
      }
      case 'tool-call-delta': {
        this.current = undefined;
        let call = this.calls.get(part.index);
        if (!call || call.complete) {
          call = {
            index: part.index,
            id: '',
            name: '',
            args: '',
            complete: false,
            order: this.content.length,
          };
          this.calls.set(part.index, call);
          this.content.push(call);
        }
        if (part.id) call.id ||= part.id;
        if (part.name) call.name ||= part.name;
        call.args += part.argsDelta;
        return;
      }
      case 'tool-call': {
        this.current = undefined;
        const index = part.index ?? this.nextAutoIndex++;
        let call = this.calls.get(index);
        if (!call || call.complete) {
          call = { index, id: '', name: '', args: '', complete: false, order: this.content.length };
          this.calls.set(index, call);
          this.content.push(call);
        }
        call.id = part.id || call.id;
        call.name = part.name || call.name;
        call.args = part.arguments;
        call.complete = true;
        if (part.providerMetadata) call.providerMetadata = part.providerMetadata;
        return;
      }
      case 'finish':
        this.finished = part;
        return;
    }
  }

  /** True once a `finish` part arrived. */
  get isFinished(): boolean {
    return this.finished !== undefined;
  }

  /** True when any text, reasoning or tool call has been received. */
  get hasContent(): boolean {
    return this.content.length > 0;
  }

  /** The response so far. Without a `finish` part the reply is marked `length` if it was cut. */
  response(): ModelResponse {
    const content: Array<TextPart | ReasoningPart | ToolCallPart> = [];
    let hasCalls = false;
    for (const item of this.content) {
      if ('order' in item) {
        hasCalls = true;
        const call: ToolCallPart = {
          type: 'tool_call',
          id: item.id || `call_${item.index}`,
          name: item.name,
          arguments: item.args,
        };
        if (item.providerMetadata) call.providerMetadata = item.providerMetadata;
        content.push(call);
      } else {
        content.push(item);
      }
    }
    const fin = this.finished;
    let finishReason = fin?.finishReason ?? 'stop';
    if (hasCalls && finishReason === 'stop') finishReason = 'tool_calls';
    const response: ModelResponse = {
      message: { role: 'assistant', content },
      finishReason,
      usage: fin?.usage ?? emptyUsage(),
    };
    if (fin?.responseId) response.responseId = fin.responseId;
    if (fin?.providerMetadata) response.providerMetadata = fin.providerMetadata;
    return response;
  }

  private open(part: TextPart | ReasoningPart, id: string | undefined): void {
    this.content.push(part);
    this.current = part;
    this.currentId = id;
  }
}

/** Replays a whole response as stream parts (one delta per text/reasoning part). */
export function* responseToStream(response: ModelResponse): Generator<ModelStreamPart> {
  let index = 0;
  for (const part of response.message.content) {
    if (part.type === 'text') yield { type: 'text-delta', delta: part.text };
    else if (part.type === 'reasoning') {
      const out: ModelStreamPart = { type: 'reasoning-delta', delta: part.text, id: `r${index}` };
      if (part.signature) out.signature = part.signature;
      if (part.redacted) out.redacted = part.redacted;
      if (part.providerMetadata) out.providerMetadata = part.providerMetadata;
      yield out;
    } else {
      const out: ModelStreamPart = {
        type: 'tool-call',
        id: part.id,
        name: part.name,
        arguments: part.arguments,
        index,
      };
      if (part.providerMetadata) out.providerMetadata = part.providerMetadata;
      yield out;
    }
    index++;
  }
  const finish: ModelStreamPart = {
    type: 'finish',
    finishReason: response.finishReason,
    usage: response.usage,
  };
  if (response.responseId) finish.responseId = response.responseId;
  yield finish;
}

/** Streams from `model`: its own `stream` when it has one, else its `generate` reply replayed. */
export async function* streamFrom(
  model: ChatModel,
  request: ModelRequest,
  options?: CallOptions,
): AsyncGenerator<ModelStreamPart> {
  if (model.stream) {
    yield* model.stream(request, options);
    return;
  }
  yield* responseToStream(await model.generate(request, options));
}

/**
 * Consumes a stream into one response: how a model that only streams
 * implements `generate`. A stream that ends with neither content nor a finish
 * part is an `invalid_response` error.
 */
export async function collectStream(
  stream: AsyncIterable<ModelStreamPart>,
  modelId = 'model',
): Promise<ModelResponse> {
  const aggregator = new StreamAggregator();
  for await (const part of stream) aggregator.push(part);
  if (!aggregator.isFinished && !aggregator.hasContent) {
    throw new ModelError('invalid_response', `${modelId}: stream ended without any content`, {
      model: modelId,
    });
  }
  return aggregator.response();
}
