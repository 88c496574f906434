/**
 * `ScriptedModel`: a {@link ChatModel} that replies from a script, records
 * every request, and fails clearly on an unexpected call. Use it to test your
 * own agents without a provider.
 * @module
 */
import { TandemError } from '../core/errors.js';
import type { AssistantMessage, ReasoningPart, TextPart, ToolCallPart } from '../core/messages.js';
import { emptyUsage, type Usage } from '../core/usage.js';
import { collectStream, responseToStream } from '../model/stream.js';
import type {
  CallOptions,
  ChatModel,
  FinishReason,
  ModelInfo,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
} from '../model/types.js';
import { estimateUsage } from './estimated-usage.js';

/** A tool call in a script: `args` is serialised for you, or give the raw `arguments` text. */
export interface ScriptedToolCall {
  name: string;
  id?: string;
  args?: unknown;
  /** Raw argument text, used as is (e.g. to script broken JSON). */
  arguments?: string;
}

/** One scripted reply. */
export type ScriptStep =
  | { text: string; reasoning?: string; usage?: Partial<Usage>; finishReason?: FinishReason }
  | {
      toolCalls: ScriptedToolCall[];
      text?: string;
      reasoning?: string;
      usage?: Partial<Usage>;
      finishReason?: FinishReason;
    }
  | { response: ModelResponse }
  /** Stream exactly these parts (for `generate`, they are aggregated). */
  | { stream: ModelStreamPart[] }
  /** Throw `error`, after streaming `afterParts` when the call streams. */
  | { error: Error; afterParts?: ModelStreamPart[] }
  /** Wait for `signal` to abort (a hanging model), then throw its abort. */
  | { hang: true };

/** A step, or a function computing one from the request. */
export type ScriptEntry =
  | ScriptStep
  | ((request: ModelRequest, callIndex: number) => ScriptStep | Promise<ScriptStep>);

/** Options of {@link ScriptedModel}. */
export interface ScriptedModelOptions {
  /** Model id. Default `scripted:model`. */
  id?: string;
  info?: ModelInfo;
  /** Implement `stream` (default true). With false the model only has `generate`. */
  stream?: boolean;
  /** How streamed text is split into deltas: whole, per word, or per character. Default `words`. */
  chunking?: 'whole' | 'words' | 'chars';
  /** Replays the script from the start when it runs out, instead of failing. */
  loop?: boolean;
  /**
   * Report an estimated usage for a text or tool-call step that scripts no
   * `usage`: input tokens from the request's text (system prompt, messages,
   * tool definitions), output tokens from the reply's, by the core's
   * `estimateTokens`. For demos and examples that show token counts. Default
   * false: usage is exactly what the script says (zeros when it says
   * nothing), so a test's usage totals and token budgets stay exact.
   */
  estimateUsage?: boolean;
}

/** Thrown when a {@link ScriptedModel} is called more often than its script allows, or left unconsumed. */
export class ScriptError extends TandemError<'unexpected_call' | 'unconsumed'> {
  static override readonly brand: string = 'ScriptError';
}

/**
 * A scripted model.
 *
 * ```ts
 * const model = new ScriptedModel([
 *   { toolCalls: [{ name: 'add', args: { a: 1, b: 2 } }] },
 *   { text: 'The sum is 3.' },
 * ]);
 * // ...run your agent...
 * expect(model.requests[1].messages.at(-1)).toMatchObject({ role: 'tool' });
 * model.assertConsumed();
 * ```
 */
export class ScriptedModel implements ChatModel {
  readonly id: string;
  readonly info?: ModelInfo;
  /** Every request received, in order (messages array copied at call time). */
  readonly requests: ModelRequest[] = [];
  readonly stream?: (request: ModelRequest, options?: CallOptions) => AsyncIterable<ModelStreamPart>;
  private readonly script: ScriptEntry[];
  private readonly options: ScriptedModelOptions;
  private next = 0;
  private callIds = 0;

  constructor(script: ScriptEntry[], options: ScriptedModelOptions = {}) {
    this.script = [...script];
    this.options = options;
    this.id = options.id ?? 'scripted:model';
    if (options.info) this.info = options.info;
    if (options.stream !== false)
      this.stream = (request, callOptions) => this.streamImpl(request, callOptions);
  }

  /** Number of calls made so far. */
  get calls(): number {
    return this.requests.length;
  }

  /** Adds steps to the end of the script. */
  push(...entries: ScriptEntry[]): this {
    this.script.push(...entries);
    return this;
  }

  /** Throws unless every scripted step was used. */
  assertConsumed(): void {
    if (this.next < this.script.length) {
      throw new ScriptError(
        'unconsumed',
        `${this.id}: ${this.script.length - this.next} scripted step(s) were never requested (used ${this.next} of ${this.script.length})`,
      );
    }
  }

  async generate(request: ModelRequest, options?: CallOptions): Promise<ModelResponse> {
    const step = await this.take(request);
    if ('hang' in step) return this.hang(options?.signal);
    if ('error' in step) throw step.error;
    if ('stream' in step) return collectStream(toAsync(step.stream), this.id);
    return this.toResponse(step, request);
  }

  private async *streamImpl(request: ModelRequest, options?: CallOptions): AsyncGenerator<ModelStreamPart> {
    const step = await this.take(request);
    if ('hang' in step) {
      await this.hang(options?.signal);
      return;
    }
    if ('error' in step) {
      for (const part of step.afterParts ?? []) yield part;
      throw step.error;
    }
    const parts = 'stream' in step ? step.stream : [...responseToStream(this.toResponse(step, request))];
    for (const part of parts) {
      if (options?.signal?.aborted) throw options.signal.reason ?? new Error('Aborted');
      if (part.type === 'text-delta' && this.options.chunking !== 'whole' && !('stream' in step)) {
        for (const delta of split(part.delta, this.options.chunking ?? 'words')) yield { ...part, delta };
      } else {
        yield part;
      }
    }
  }

  private async take(request: ModelRequest): Promise<ScriptStep> {
    const index = this.requests.length;
    this.requests.push({ ...request, messages: request.messages.slice() });
    if (this.next >= this.script.length) {
      if (this.options.loop && this.script.length > 0) this.next = 0;
      else {
        throw new ScriptError(
          'unexpected_call',
          `${this.id}: unexpected call #${index + 1}; the script has only ${this.script.length} step(s)`,
        );
      }
    }
    const entry = this.script[this.next++]!;
    return typeof entry === 'function' ? entry(request, index) : entry;
  }

  private toResponse(
    step: Exclude<ScriptStep, { error: Error } | { stream: unknown } | { hang: true }>,
    request: ModelRequest,
  ): ModelResponse {
    if ('response' in step) return step.response;
    const content: AssistantMessage['content'] = [];
    if (step.reasoning) content.push({ type: 'reasoning', text: step.reasoning } satisfies ReasoningPart);
    if (step.text) content.push({ type: 'text', text: step.text } satisfies TextPart);
    let finishReason: FinishReason = step.finishReason ?? 'stop';
    if ('toolCalls' in step) {
      for (const call of step.toolCalls) {
        const part: ToolCallPart = {
          type: 'tool_call',
          id: call.id ?? `call_${++this.callIds}`,
          name: call.name,
          arguments: call.arguments ?? JSON.stringify(call.args ?? {}),
        };
        content.push(part);
      }
      finishReason = step.finishReason ?? 'tool_calls';
    }
    const message: AssistantMessage = { role: 'assistant', content };
    const usage =
      step.usage === undefined && this.options.estimateUsage
        ? estimateUsage(request, message)
        : { ...emptyUsage(), ...step.usage };
    return { message, finishReason, usage };
  }

  private hang(signal: AbortSignal | undefined): Promise<never> {
    return new Promise((_, reject) => {
      if (!signal) return;
      const fail = () => reject(signal.reason ?? new Error('Aborted'));
      if (signal.aborted) fail();
      else signal.addEventListener('abort', fail, { once: true });
    });
  }
}

function split(text: string, mode: 'words' | 'chars'): string[] {
  if (mode === 'chars') return Array.from(text);
  return text.match(/\S+\s*|\s+/g) ?? [text];
}

async function* toAsync<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}
