/**
 * Context compression (seeds 002, 004; §38–48): when a conversation passes
 * its threshold, prune old tool outputs; if that is not enough, summarise
 * the middle with a cheap model; if summarising fails, truncate — always
 * keeping the head, a token-budgeted tail and every tool call with its
 * results, and always saying what was done in a `compression` event.
 * @module
 */
import { errorMessage, isAbortError } from '../core/errors.js';
import type { Emitter } from '../core/events.js';
import type { Message } from '../core/messages.js';
import type { ChatModel, ModelRequest } from '../model/types.js';
import { findFittingTailStart, findHeadEnd, findTailStart } from './compressor-boundaries.js';
import type { CompressionResult, CompressOptions, ContextCompressorOptions } from './compressor-options.js';
import { resolveContextWindow } from './model-table.js';
import { summarizeTurns } from './summarize.js';
import { placeBetween } from './summary-placement.js';
import { COMPACTION_NOTE, formatSummary, summaryBodyOf } from './summary-prompt.js';
import { TokenCounter } from './token-counter.js';
import { pruneToolOutputs } from './tool-output-pruning.js';
import { sanitizeToolPairs } from './tool-pairs.js';

const NO_SUMMARIZER = 'no summarizer configured';

/**
 * Compresses conversations. Keeps per instance the summary it last wrote
 * and whether it has compacted before (for the one-time system note).
 *
 * ```ts
 * const compressor = new ContextCompressor({ counter, summarizer: flashModel, contextWindow: 128_000 });
 * if (compressor.shouldCompress(counter.count(request))) {
 *   const result = await compressor.compress(request, { signal, emit });
 *   request = { ...request, messages: result.messages };
 * }
 * ```
 */
export class ContextCompressor {
  /** The counter used for every count. */
  readonly counter: TokenCounter;
  private window: number;
  private readonly o: Required<
    Omit<
      ContextCompressorOptions,
      'counter' | 'summarizer' | 'contextWindow' | 'model' | 'thresholdTokens' | 'emit'
    >
  >;
  private readonly summarizer: ChatModel | undefined;
  private readonly thresholdTokens: number | undefined;
  private readonly emit: Emitter | undefined;
  private lastSummary: string | undefined;
  private compactions = 0;

  constructor(options: ContextCompressorOptions = {}) {
    this.counter = options.counter ?? new TokenCounter();
    this.summarizer = options.summarizer;
    this.window = resolveContextWindow(options);
    this.thresholdTokens = options.thresholdTokens;
    this.emit = options.emit;
    this.o = {
      thresholdRatio: options.thresholdRatio ?? 0.5,
      targetRatio: options.targetRatio ?? 0.8,
      protectFirst: options.protectFirst ?? 3,
      tailTokens: options.tailTokens ?? 20_000,
      minTailMessages: options.minTailMessages ?? 3,
      pruneMinChars: options.pruneMinChars ?? 200,
      summaryRatio: options.summaryRatio ?? 0.2,
      minSummaryTokens: options.minSummaryTokens ?? 2000,
      maxSummaryTokens: options.maxSummaryTokens ?? 10_000,
      summarizerInputChars: options.summarizerInputChars ?? 200_000,
      alternateRoles: options.alternateRoles ?? true,
    };
  }

  /** The context window compression works against. */
  get contextWindow(): number {
    return this.window;
  }

  /** Lowers (or raises) the window, e.g. after a provider named a smaller limit in a context-length error. */
  setContextWindow(tokens: number): void {
    if (tokens > 0) this.window = tokens;
  }

  /** Token count at which {@link ContextCompressor.shouldCompress} says yes. */
  get threshold(): number {
    const byRatio = Math.floor(this.window * this.o.thresholdRatio);
    return this.thresholdTokens === undefined
      ? byRatio
      : Math.min(this.thresholdTokens, Math.floor(this.window * 0.9));
  }

  /** Token count a compression aims below. */
  get target(): number {
    return Math.floor(this.threshold * this.o.targetRatio);
  }

  /** The summary this compressor last wrote. */
  get summary(): string | undefined {
    return this.lastSummary;
  }

  /** The compaction note, once this compressor has compacted turns (for callers that rebuild the system prompt each call). */
  get systemNote(): string | undefined {
    return this.compactions > 0 ? COMPACTION_NOTE : undefined;
  }

  /** True when a request of `tokens` tokens should be compressed. */
  shouldCompress(tokens: number): boolean {
    return tokens >= this.threshold;
  }

  /**
   * Compresses `request.messages` so the whole request fits the target:
   * prune old tool outputs; else summarise the middle; else (summariser
   * missing or failing) truncate to the head and the newest messages that
   * fit, with a notice in their place. Rejects only on abort.
   */
  async compress(
    request: Pick<ModelRequest, 'system' | 'tools' | 'messages'>,
    options: CompressOptions = {},
  ): Promise<CompressionResult> {
    const messages = request.messages;
    const counter = this.counter;
    const fixed = counter.count({ system: request.system, tools: request.tools, messages: [] });
    const counts = messages.map((m) => counter.countMessage(m));
    const tokensBefore = fixed + sum(counts, 0, counts.length);
    const target = options.targetTokens ?? this.target;
    const unchanged = (reason: string): CompressionResult => ({
      messages: messages.slice(),
      compressed: false,
      reason,
      tokensBefore,
      tokensAfter: tokensBefore,
      messagesBefore: messages.length,
      messagesAfter: messages.length,
      fits: tokensBefore <= target,
    });
    if (tokensBefore <= target) return unchanged('under target');

    const headEnd = findHeadEnd(messages, this.o.protectFirst);
    const tailBudget = Math.min(this.o.tailTokens, Math.floor(target / 2));
    const tailStart = findTailStart(messages, counts, headEnd, tailBudget, this.o.minTailMessages);
    if (tailStart <= headEnd) return unchanged('nothing between the protected head and tail');

    const emit = options.emit ?? this.emit;
    const done = (
      method: CompressionResult['method'],
      out: readonly Message[],
      extra: Partial<CompressionResult>,
    ) =>
      this.finish(method, out, { fixed, tokensBefore, messagesBefore: messages.length, target, emit, extra });

    const pruned = pruneToolOutputs(messages, headEnd, tailStart, this.o.pruneMinChars);
    if (pruned.pruned > 0 && fixed + counter.countMessages(pruned.messages) <= target) {
      return done('prune', pruned.messages, {});
    }

    const middle = messages.slice(headEnd, tailStart);
    const previous = findSummary(middle);
    let failure = NO_SUMMARIZER;
    if (this.summarizer) {
      try {
        const body = await summarizeTurns(middle, {
          summarizer: this.summarizer,
          counter,
          previous,
          maxTokens: this.summaryBudget(sum(counts, headEnd, tailStart), target),
          inputChars: this.o.summarizerInputChars,
          signal: options.signal,
        });
        this.lastSummary = body;
        const out = placeBetween(
          messages.slice(0, headEnd),
          formatSummary(body),
          messages.slice(tailStart),
          this.o.alternateRoles,
        );
        return done('summary', sanitizeToolPairs(out), { summary: body });
      } catch (error) {
        if (isAbortError(error) || options.signal?.aborted) throw error;
        failure = `summary failed: ${errorMessage(error)}`;
      }
    }
    const prunedCounts = pruned.messages.map((m) => counter.countMessage(m));
    return this.truncate(pruned.messages, prunedCounts, headEnd, fixed, target, previous, failure, done);
  }

  private truncate(
    messages: readonly Message[],
    counts: readonly number[],
    headEnd: number,
    fixed: number,
    target: number,
    previous: string | undefined,
    reason: string,
    done: (
      method: CompressionResult['method'],
      out: readonly Message[],
      extra: Partial<CompressionResult>,
    ) => CompressionResult,
  ): CompressionResult {
    // The notice's size barely depends on the count it names: size it for the largest.
    const noticeTokens =
      this.counter.countText(truncationNotice(messages.length, reason, previous)) +
      this.counter.messageOverhead;
    const budget = target - fixed - sum(counts, 0, headEnd) - noticeTokens;
    const tailStart = findFittingTailStart(messages, counts, headEnd, budget);
    const dropped = tailStart - headEnd;
    const notice = truncationNotice(dropped, reason, previous);
    const out = placeBetween(
      messages.slice(0, headEnd),
      notice,
      messages.slice(tailStart),
      this.o.alternateRoles,
    );
    return done('truncate', sanitizeToolPairs(out), { reason });
  }

  // 20 % of what is summarised, within the configured bounds and a quarter of the target.
  private summaryBudget(middleTokens: number, target: number): number {
    const { summaryRatio, minSummaryTokens, maxSummaryTokens } = this.o;
    const byRatio = Math.min(
      maxSummaryTokens,
      Math.max(minSummaryTokens, Math.round(middleTokens * summaryRatio)),
    );
    return Math.max(256, Math.min(byRatio, Math.floor(target / 4)));
  }

  private finish(
    method: CompressionResult['method'],
    out: readonly Message[],
    ctx: {
      fixed: number;
      tokensBefore: number;
      messagesBefore: number;
      target: number;
      emit: Emitter | undefined;
      extra: Partial<CompressionResult>;
    },
  ): CompressionResult {
    const tokensAfter = ctx.fixed + this.counter.countMessages(out);
    let systemNote: string | undefined;
    if (method !== 'prune' && this.compactions++ === 0) systemNote = COMPACTION_NOTE;
    ctx.emit?.emit('compression', {
      tokensBefore: ctx.tokensBefore,
      tokensAfter,
      messagesBefore: ctx.messagesBefore,
      messagesAfter: out.length,
      method: method!,
      ...(ctx.extra.reason ? { reason: ctx.extra.reason } : {}),
    });
    return {
      messages: out.slice(),
      compressed: true,
      method,
      tokensBefore: ctx.tokensBefore,
      tokensAfter,
      messagesBefore: ctx.messagesBefore,
      messagesAfter: out.length,
      fits: tokensAfter <= ctx.target,
      ...(systemNote ? { systemNote } : {}),
      ...ctx.extra,
    };
  }
}

function truncationNotice(dropped: number, reason: string, previous: string | undefined): string {
  const notice = `[Context truncated] ${dropped} earlier message(s) were removed to fit the context window (${reason}).`;
  return previous ? `${formatSummary(previous)}\n\n${notice}` : notice;
}

function findSummary(messages: readonly Message[]): string | undefined {
  let found: string | undefined;
  for (const message of messages) found = summaryBodyOf(message) ?? found;
  return found;
}

function sum(values: readonly number[], from: number, to: number): number {
  let total = 0;
  for (let i = from; i < to; i++) total += values[i]!;
  return total;
}
