/**
 * Token accounting for requests: tiktoken where the model's encoding is known
 * (loaded lazily), a cheap estimate otherwise, and a cache so each message,
 * tool schema and system part is counted once.
 * @module
 */

import { estimateTokens } from '../core/estimate.js';
import type { Message } from '../core/messages.js';
import type { ModelRequest, SystemPart, ToolSpec } from '../model/types.js';
import type { BpeCounter } from './bpe.js';
import { type EncodingName, encodingForModel, loadCounter } from './encodings.js';
import {
  estimateMediaTokens,
  type MediaTokenEstimate,
  type MediaTokenRule,
  mediaTokenRule,
} from './media-tokens.js';

/** Options of {@link TokenCounter}. */
export interface TokenCounterOptions {
  /** Model id (`openai:gpt-4o`, `gpt-4.1`, …); picks the encoding. Unknown models are estimated. */
  model?: string;
  /** The encoding, overriding the one `model` implies; `'estimate'` never loads rank data. */
  encoding?: EncodingName | 'estimate';
  /** A custom tokenizer: tokens of one text. Wins over `model` and `encoding`. */
  tokenize?: (text: string) => number;
  /** Tokens every message costs besides its content (role, separators). Default 4. */
  messageOverhead?: number;
  /** Tokens a request costs besides its parts (reply priming). Default 3. */
  requestOverhead?: number;
  /**
   * How images and files are estimated: a provider's rule, or your own
   * estimate. Default: the rule of `model` (Claude → `anthropic`, Gemini →
   * `gemini`, else `openai`); see docs/multimodal.md.
   */
  mediaTokens?: MediaTokenRule | MediaTokenEstimate;
}

interface CachedCount {
  tokens: number;
  generation: number;
}

const TOOL_CALL_OVERHEAD = 3;
const TOOL_SCHEMA_OVERHEAD = 8;
const SYSTEM_STRING_MEMO = 8;

/**
 * Counts tokens of texts, messages, tool schemas and whole requests.
 *
 * Counts are cached per message object, per `ToolSpec` object and per
 * `SystemPart` object: messages are immutable, so a message is tokenized once
 * however often it is sent. Until the encoding has loaded (start it with
 * {@link TokenCounter.ready}, or the first count starts it in the background)
 * counts are estimates; when it arrives, {@link TokenCounter.generation}
 * increases and cached estimates are recounted on their next use.
 *
 * ```ts
 * const counter = new TokenCounter({ model: 'gpt-4o' });
 * await counter.ready(); // optional: exact counts from the first call on
 * counter.count({ system: 'Be brief.', messages, tools });
 * ```
 */
export class TokenCounter {
  /** What counts: an encoding name, `'estimate'` or `'custom'`. */
  readonly method: EncodingName | 'estimate' | 'custom';
  /** Tokens per message besides its content. */
  readonly messageOverhead: number;
  /** Tokens per request besides its parts. */
  readonly requestOverhead: number;
  /** Messages tokenized so far (cache misses); lets tests and benches see the work done. */
  messagesTokenized = 0;
  private encoder: BpeCounter | undefined;
  private loading: Promise<void> | undefined;
  private gen = 0;
  private readonly tokenize: ((text: string) => number) | undefined;
  private readonly mediaTokens: MediaTokenEstimate;
  private readonly messageCounts = new WeakMap<Message, CachedCount>();
  private readonly objectCounts = new WeakMap<ToolSpec | SystemPart, CachedCount>();
  private readonly systemStrings = new Map<string, CachedCount>();

  constructor(options: TokenCounterOptions = {}) {
    this.tokenize = options.tokenize;
    const media = options.mediaTokens ?? mediaTokenRule(options.model);
    this.mediaTokens = typeof media === 'function' ? media : (part) => estimateMediaTokens(part, media);
    this.messageOverhead = options.messageOverhead ?? 4;
    this.requestOverhead = options.requestOverhead ?? 3;
    const encoding =
      options.encoding ?? (options.model ? encodingForModel(options.model) : undefined) ?? 'estimate';
    this.method = options.tokenize ? 'custom' : encoding;
  }

  /** Increases when the encoder arrives and cached estimates become stale. */
  get generation(): number {
    return this.gen;
  }

  /** True when counts come from the real tokenizer (or a custom one), not from an estimate. */
  get exact(): boolean {
    return this.method === 'custom' || this.encoder !== undefined;
  }

  /**
   * Loads the encoding (once per process). Resolves when counts are exact;
   * resolves too, with estimates kept, when the encoding cannot be loaded.
   */
  ready(): Promise<void> {
    if (this.method === 'custom' || this.method === 'estimate') return Promise.resolve();
    this.loading ??= loadCounter(this.method).then(
      (encoder) => {
        this.encoder = encoder;
        this.gen++;
      },
      () => {
        // Estimates stay in use: a counter must never make a run fail.
      },
    );
    return this.loading;
  }

  /** Tokens of one text. */
  countText(text: string): number {
    if (!text) return 0;
    if (this.tokenize) return this.tokenize(text);
    if (this.encoder) return this.encoder.count(text);
    if (!this.loading && this.method !== 'estimate') void this.ready();
    return estimateTokens(text);
  }

  /** Tokens of one message (images and files by the media rule), counted once per message object. */
  countMessage(message: Message): number {
    const cached = this.messageCounts.get(message);
    if (cached && cached.generation === this.gen) return cached.tokens;
    const tokens = this.tokenizeMessage(message);
    this.messagesTokenized++;
    this.messageCounts.set(message, { tokens, generation: this.gen });
    return tokens;
  }

  /** Tokens of messages (each from the cache when already counted). */
  countMessages(messages: readonly Message[]): number {
    let total = 0;
    for (const message of messages) total += this.countMessage(message);
    return total;
  }

  /** Tokens of a system prompt, string or parts. */
  countSystem(system: ModelRequest['system']): number {
    if (!system) return 0;
    if (typeof system !== 'string') {
      let total = 0;
      for (const part of system) total += this.cachedObject(part, () => this.countText(part.text));
      return total;
    }
    const cached = this.systemStrings.get(system);
    if (cached && cached.generation === this.gen) return cached.tokens;
    const tokens = this.countText(system);
    // System prompts change rarely; a small memo holds the current ones.
    if (this.systemStrings.size >= SYSTEM_STRING_MEMO) this.systemStrings.clear();
    this.systemStrings.set(system, { tokens, generation: this.gen });
    return tokens;
  }

  /** Tokens of tool schemas, counted once per `ToolSpec` object. */
  countTools(tools: readonly ToolSpec[] | undefined): number {
    if (!tools) return 0;
    let total = 0;
    for (const tool of tools) {
      total += this.cachedObject(
        tool,
        () =>
          this.countText(tool.name) +
          this.countText(tool.description) +
          this.countText(JSON.stringify(tool.parameters)) +
          TOOL_SCHEMA_OVERHEAD,
      );
    }
    return total;
  }

  /** Pre-flight count of a whole request: system prompt, tool schemas and messages. */
  count(request: Pick<ModelRequest, 'system' | 'messages' | 'tools'>): number {
    return (
      this.requestOverhead +
      this.countSystem(request.system) +
      this.countTools(request.tools) +
      this.countMessages(request.messages)
    );
  }

  private cachedObject(key: ToolSpec | SystemPart, count: () => number): number {
    const cached = this.objectCounts.get(key);
    if (cached && cached.generation === this.gen) return cached.tokens;
    const tokens = count();
    this.objectCounts.set(key, { tokens, generation: this.gen });
    return tokens;
  }

  private tokenizeMessage(message: Message): number {
    if (typeof message.content === 'string') return this.messageOverhead + this.countText(message.content);
    let tokens = this.messageOverhead;
    for (const part of message.content) {
      switch (part.type) {
        case 'text':
          tokens += this.countText(part.text);
          break;
        case 'reasoning':
          tokens += this.countText(part.text) + (part.redacted ? estimateTokens(part.redacted) : 0);
          break;
        case 'tool_call':
          tokens += TOOL_CALL_OVERHEAD + this.countText(part.name) + this.countText(part.arguments);
          break;
        case 'tool_result':
          tokens += TOOL_CALL_OVERHEAD + this.countText(part.content);
          for (const attachment of part.attachments ?? []) tokens += this.mediaTokens(attachment);
          break;
        case 'image':
        case 'file':
          tokens += this.mediaTokens(part);
          break;
      }
    }
    return tokens;
  }
}
