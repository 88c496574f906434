/**
 * Options and results of the {@link ContextCompressor}.
 * @module
 */
import type { Emitter, EventPayloads } from '../core/events.js';
import type { Message } from '../core/messages.js';
import type { ChatModel } from '../model/types.js';
import type { TokenCounter } from './token-counter.js';

/** Options of `ContextCompressor`. Defaults are the seeds'. */
export interface ContextCompressorOptions {
  /** Counts tokens. Default: an estimating {@link TokenCounter}. */
  counter?: TokenCounter;
  /** The cheap (flash-tier) model that writes summaries. Without one, compression prunes, then truncates. */
  summarizer?: ChatModel;
  /** Window of the model whose requests are compressed. Default: from `model`, else 128k. */
  contextWindow?: number;
  /** The model whose requests are compressed (its `info.contextWindow` or the known-models table). */
  model?: ChatModel | string;
  /** Compress at this fraction of the window. Default 0.5. */
  thresholdRatio?: number;
  /** Compress at this many tokens instead (e.g. 60 000); capped at 90 % of the window. */
  thresholdTokens?: number;
  /** A compression aims below this fraction of the threshold. Default 0.8. */
  targetRatio?: number;
  /** Messages at the start that are always kept. Default 3. */
  protectFirst?: number;
  /** Tokens of recent messages always kept. Default 20 000 (at most half the target). */
  tailTokens?: number;
  /** Recent messages always kept, whatever their size. Default 3. */
  minTailMessages?: number;
  /** Tool outputs longer than this (characters) outside the tail are pruned first. Default 200. */
  pruneMinChars?: number;
  /** Summary length as a fraction of the summarised tokens, clamped to the next two. Default 0.2. */
  summaryRatio?: number;
  /** Default 2000. */
  minSummaryTokens?: number;
  /** Default 10 000. */
  maxSummaryTokens?: number;
  /** Characters of turns sent to the summariser per call; longer middles are folded in chunks. Default 200 000. */
  summarizerInputChars?: number;
  /** Keep user/assistant alternation at the seams (Anthropic, Gemini need it). Default true. */
  alternateRoles?: boolean;
  /** Where `compression` events go when a call passes none. */
  emit?: Emitter;
}

/** Options of one `ContextCompressor.compress` call. */
export interface CompressOptions {
  /** Tokens the whole request (system, tools, messages) should fit in. Default: the compressor's target. */
  targetTokens?: number;
  signal?: AbortSignal;
  emit?: Emitter;
}

/** What a compression did. `messages` is a new array; the input is never modified. */
export interface CompressionResult {
  messages: Message[];
  /**
   * False when the input was returned unchanged (under target, nothing between head and tail, or
   * nothing that would make the request smaller).
   */
  compressed: boolean;
  /** The method applied; with `fallback: 'unchanged'`, the last one tried. */
  method?: EventPayloads['compression']['method'];
  /** Set when a result would not have made the request smaller; see the `compression` event. */
  fallback?: EventPayloads['compression']['fallback'];
  /** Why nothing was done, or why the compressor had to truncate. */
  reason?: string;
  tokensBefore: number;
  /** Tokens of the request sent, the `systemNote` included when one is returned. Never above `tokensBefore`. */
  tokensAfter: number;
  messagesBefore: number;
  messagesAfter: number;
  /** True when the result fits the target. */
  fits: boolean;
  /** Set on this compressor's first compaction: append it to the system prompt's dynamic suffix. */
  systemNote?: string;
  /** The summary body written by this compression. */
  summary?: string;
}
