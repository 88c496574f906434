/**
 * Context compression (seeds 002, 004; §38–48): when a conversation passes
 * its threshold, prune old tool outputs; if that is not enough, summarise
 * the middle with a cheap model; if summarising fails, truncate — always
 * keeping the head, a token-budgeted tail and every tool call with its
 * results, never sending a request bigger than the one it replaces, and
 * always saying what was done in a `compression` event.
 * @module
 */
import { errorMessage, isAbortError } from '../core/errors.js';
import type { Emitter, EventPayloads } from '../core/events.js';
import type { Message } from '../core/messages.js';
import type { ChatModel, ModelRequest } from '../model/types.js';
import {
  type CountedMessages,
  findFittingTailStart,
  findHeadEnd,
  findTailStart,
} from './compressor-boundaries.js';
import type { CompressionResult, CompressOptions, ContextCompressorOptions } from './compressor-options.js';
import { type ContextWindowSource, contextWindowOf } from './model-table.js';
import { smartTruncate } from './smart-truncate.js';
import { summarizeTurns } from './summarize.js';
import { placeBetween } from './summary-placement.js';
import { COMPACTION_NOTE, formatSummary, summaryBodyOf } from './summary-prompt.js';
import { withCompactionNote } from './system-note.js';
import { TokenCounter } from './token-counter.js';
import { pruneToolOutputs } from './tool-output-pruning.js';
import { sanitizeToolPairs } from './tool-pairs.js';

const NO_SUMMARIZER = 'no summarizer configured';
const SUMMARY_NOT_SMALLER = 'a summary would not shrink the request';
const NOTHING_SMALLER = 'neither a summary nor a truncation would shrink the request';

type Method = NonNullable<CompressionResult['method']>;
type Done = (method: Method, out: readonly Message[], extra: Partial<CompressionResult>) => CompressionResult;

/** What the summary step of one `compress` call works against. */
interface SummaryJob {
  /** Token count the whole request aims below. */
  readonly target: number;
  /** The earlier summary among the summarised messages, folded into the new one. */
  readonly previous: string | undefined;
  readonly signal: AbortSignal | undefined;
}

/** A truncation to try: the tokens left for kept messages and the notice, and what the notice says. */
interface Truncation {
  readonly budget: number;
  /** The earlier summary among the dropped messages, carried (maybe shortened) by the notice. */
  readonly previous: string | undefined;
  /** Why there is no summary. */
  readonly reason: string;
  /** True when `out` makes the request smaller than before compressing. */
  readonly shrinks: (out: readonly Message[]) => boolean;
}

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
    const window = contextWindowOf(options);
    this.window = window.tokens;
    this.windowSource = window.source;
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

  /** Where {@link ContextCompressor.contextWindow} came from. */
  windowSource: ContextWindowSource;

  /** Lowers (or raises) the window, e.g. after a provider named a smaller limit in a context-length error. */
  setContextWindow(tokens: number, source: ContextWindowSource = 'option'): void {
    if (tokens > 0) {
      this.window = tokens;
      this.windowSource = source;
    }
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
   * fit, with a notice in their place. A summary that would not make the
   * request smaller gives way to a truncation, and a truncation that would
   * not either leaves the request as it is (`fallback` says which; counts
   * include the compaction note a first compaction adds). Rejects only on
   * abort.
   */
  async compress(
    request: Pick<ModelRequest, 'system' | 'tools' | 'messages'>,
    options: CompressOptions = {},
  ): Promise<CompressionResult> {
    const { messages, system, tools } = request;
    const counter = this.counter;
    const fixed = counter.count({ system, tools, messages: [] });
    const counts = messages.map((m) => counter.countMessage(m));
    const tokensBefore = fixed + sum(counts, 0, counts.length);
    const target = options.targetTokens ?? this.target;
    const emit = options.emit ?? this.emit;
    const unchanged = (reason: string, extra: Partial<CompressionResult> = {}): CompressionResult => {
      const result: CompressionResult = {
        messages: messages.slice(),
        compressed: false,
        reason,
        tokensBefore,
        tokensAfter: tokensBefore,
        messagesBefore: messages.length,
        messagesAfter: messages.length,
        fits: tokensBefore <= target,
        ...extra,
      };
      if (result.fallback) emit?.emit('compression', compressionEvent(result));
      return result;
    };
    if (tokensBefore <= target) return unchanged('under target');

    const headEnd = findHeadEnd(messages, this.o.protectFirst);
    const tailBudget = Math.min(this.o.tailTokens, Math.floor(target / 2));
    const whole: CountedMessages = { messages, counts, headEnd };
    const tailStart = findTailStart(whole, tailBudget, this.o.minTailMessages);
    if (tailStart <= headEnd) return unchanged('nothing between the protected head and tail');

    // Summaries and truncations compact turns: the first one adds the note to the system prompt.
    const fixedCompacted =
      this.compactions > 0
        ? fixed
        : counter.count({ system: withCompactionNote(system), tools, messages: [] });
    const done: Done = (method, out, extra) => {
      const result = this.finish(method, out, method === 'prune' ? fixed : fixedCompacted);
      const fits = result.tokensAfter <= target;
      const full = { ...result, fits, ...extra, tokensBefore, messagesBefore: messages.length };
      emit?.emit('compression', compressionEvent(full));
      return full;
    };
    const shrinks = (out: readonly Message[]) => fixedCompacted + counter.countMessages(out) < tokensBefore;

    const pruned = pruneToolOutputs(messages, { from: headEnd, to: tailStart }, this.o.pruneMinChars);
    if (pruned.pruned > 0 && fixed + counter.countMessages(pruned.messages) <= target) {
      return done('prune', pruned.messages, {});
    }
    const previous = findSummary(messages.slice(headEnd, tailStart));
    const summary = await this.summarize(whole, tailStart, { target, previous, signal: options.signal });
    if (typeof summary !== 'string' && shrinks(summary.out)) {
      this.lastSummary = summary.body;
      return done('summary', summary.out, { summary: summary.body });
    }
    const failure = typeof summary === 'string' ? summary : SUMMARY_NOT_SMALLER;
    const prunedCounts = pruned.messages.map((m) => counter.countMessage(m));
    const budget = target - fixedCompacted - sum(prunedCounts, 0, headEnd);
    const out = this.truncateShrinking(
      { messages: pruned.messages, counts: prunedCounts, headEnd },
      { budget, previous, reason: failure, shrinks },
    );
    if (out) {
      const fallback = failure === SUMMARY_NOT_SMALLER ? { fallback: 'truncate' as const } : {};
      return done('truncate', out, { reason: failure, ...fallback });
    }
    const reason =
      failure === SUMMARY_NOT_SMALLER
        ? NOTHING_SMALLER
        : `${failure}; a truncation would not shrink the request`;
    return unchanged(reason, { method: 'truncate', fallback: 'unchanged' });
  }

  // The conversation with the middle summarised, or why there is none (no summariser, or it failed).
  private async summarize(
    conversation: CountedMessages,
    tailStart: number,
    job: SummaryJob,
  ): Promise<{ out: readonly Message[]; body: string } | string> {
    if (!this.summarizer) return NO_SUMMARIZER;
    const { messages, counts, headEnd } = conversation;
    const { target, previous, signal } = job;
    try {
      const body = await summarizeTurns(messages.slice(headEnd, tailStart), {
        summarizer: this.summarizer,
        counter: this.counter,
        previous,
        maxTokens: this.summaryBudget(sum(counts, headEnd, tailStart), target),
        inputChars: this.o.summarizerInputChars,
        signal,
      });
      const head = messages.slice(0, headEnd);
      const tail = messages.slice(tailStart);
      const out = sanitizeToolPairs(placeBetween({ head, tail }, formatSummary(body), this.o.alternateRoles));
      return { out, body };
    } catch (error) {
      if (isAbortError(error) || signal?.aborted) throw error;
      return `summary failed: ${errorMessage(error)}`;
    }
  }

  // The head, a notice, and the newest contiguous messages that fit `budget` with the notice.
  private truncate(
    conversation: CountedMessages,
    truncation: Truncation,
    previous: string | undefined,
  ): readonly Message[] {
    const { messages, headEnd } = conversation;
    const { budget, reason } = truncation;
    // The notice's size barely depends on the count it names: size it for the largest.
    const noticeTokens =
      this.counter.countText(truncationNotice(messages.length, reason, previous)) +
      this.counter.messageOverhead;
    const tailStart = findFittingTailStart(conversation, budget - noticeTokens);
    const notice = truncationNotice(tailStart - headEnd, reason, previous);
    return sanitizeToolPairs(
      placeBetween(
        { head: messages.slice(0, headEnd), tail: messages.slice(tailStart) },
        notice,
        this.o.alternateRoles,
      ),
    );
  }

  /*
   * A truncation that shrinks the request. The earlier summary the notice
   * carries can cost about as much as the messages it removes (a small middle
   * after a recent compaction): then it is carried shortened, else left out,
   * rather than the request left as it is, over its target, with no notice.
   */
  private truncateShrinking(
    conversation: CountedMessages,
    truncation: Truncation,
  ): readonly Message[] | undefined {
    for (const carried of carriedSummaries(truncation.previous)) {
      const out = this.truncate(conversation, truncation, carried);
      if (truncation.shrinks(out)) return out;
    }
    return undefined;
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

  // A compressed result of `fixed` tokens besides its messages; the caller adds whether it fits, and what it measured before compressing.
  private finish(
    method: Method,
    out: readonly Message[],
    fixed: number,
  ): Omit<CompressionResult, 'tokensBefore' | 'messagesBefore' | 'fits'> {
    const tokensAfter = fixed + this.counter.countMessages(out);
    let systemNote: string | undefined;
    if (method !== 'prune' && this.compactions++ === 0) systemNote = COMPACTION_NOTE;
    return {
      messages: out.slice(),
      compressed: true,
      method,
      tokensAfter,
      messagesAfter: out.length,
      ...(systemNote ? { systemNote } : {}),
    };
  }
}

function compressionEvent(result: CompressionResult): EventPayloads['compression'] {
  return {
    tokensBefore: result.tokensBefore,
    tokensAfter: result.tokensAfter,
    messagesBefore: result.messagesBefore,
    messagesAfter: result.messagesAfter,
    method: result.method!,
    ...(result.reason ? { reason: result.reason } : {}),
    ...(result.fallback ? { fallback: result.fallback } : {}),
  };
}

function truncationNotice(dropped: number, reason: string, previous: string | undefined): string {
  const notice = `[Context truncated] ${dropped} earlier message(s) were removed to fit the context window (${reason}).`;
  return previous ? `${formatSummary(previous)}\n\n${notice}` : notice;
}

/** Below this a shortened summary says too little to be worth its markers. */
const MIN_CARRIED_CHARS = 200;

/** The earlier summary whole, then halved while it is worth carrying, then none. */
function* carriedSummaries(previous: string | undefined): Generator<string | undefined> {
  yield previous;
  if (previous === undefined) return;
  for (
    let chars = Math.floor(previous.length / 2);
    chars >= MIN_CARRIED_CHARS;
    chars = Math.floor(chars / 2)
  ) {
    yield smartTruncate(previous, chars);
  }
  yield undefined;
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
