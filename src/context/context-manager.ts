/**
 * The glue between the context layer and the agents: `prepareRequest` runs
 * before every model call (the Executor's hook) and `compressHook` serves the
 * model layer's context-length recovery. Counting is incremental: a turn
 * costs the messages added since the last turn, not the history.
 * @module
 */
import type { Emitter } from '../core/events.js';
import type { Message } from '../core/messages.js';
import type { CompressHook } from '../model/invoke.js';
import type { ModelRequest } from '../model/types.js';
import { ContextCompressor } from './compressor.js';
import type { CompressionResult, ContextCompressorOptions } from './compressor-options.js';
import { ConversationTallies } from './conversation-tallies.js';
import { withCompactionNote } from './system-note.js';
import { TokenCounter } from './token-counter.js';

/** Options of {@link createContextManager}. */
export interface ContextManagerOptions {
  compressor: ContextCompressor;
  /** Default: the compressor's counter (they must agree). */
  counter?: TokenCounter;
  /** Overrides the compressor's context window. */
  contextWindow?: number;
  /** Where `compression` events go when `prepareRequest` gets no emitter. */
  emit?: Emitter;
  /** A recovery compression aims at this fraction of the provider's limit. Default 0.8. */
  recoveryRatio?: number;
}

/** What `prepareRequest` gets besides the request (the Executor's `PrepareRequestInfo` fits). */
export interface PrepareInfo {
  signal?: AbortSignal;
  emit?: Emitter;
}

/** The context manager. One per conversation. */
export interface ContextManager {
  /**
   * Counts the request (incrementally) and, past the compressor's threshold,
   * replaces its messages with a compressed conversation. Earlier
   * compressions keep applying: the caller's growing message array is
   * never modified, and the request sent carries the compacted prefix plus
   * the messages added since.
   */
  prepareRequest(request: ModelRequest, info?: PrepareInfo): Promise<ModelRequest>;
  /** For the model invoker: compresses a rejected request to fit the provider's `contextLimit`. */
  compressHook: CompressHook;
  /** Tokens of the last request prepared or recovered, as sent (the compaction note included). */
  readonly lastCount: number;
  /** Forgets compressions and counts (a new conversation). */
  reset(): void;
}

/** A compressed replacement for the caller's messages `[0, length)`. */
interface Compaction {
  length: number;
  first: Message;
  last: Message;
  messages: Message[];
  tokens: number;
  /** Turns were summarised or removed (not only pruned): the system note applies. */
  compacted: boolean;
}

/**
 * Creates a context manager.
 *
 * ```ts
 * const context = createContextManager({ compressor: new ContextCompressor({ counter, summarizer }) });
 * const executor = new Executor({ model, tools, context: { manager: () => context } });
 * const invoker = resilientInvoker(model, { compress: context.compressHook });
 * ```
 */
export function createContextManager(options: ContextManagerOptions): ContextManager {
  return managerWith(options, undefined);
}

/** A manager counting with `tallies`: running counts shared with other managers of the same conversations. */
function managerWith(
  options: ContextManagerOptions,
  shared: ConversationTallies | undefined,
): ContextManager {
  const { compressor } = options;
  const counter = options.counter ?? compressor.counter;
  const recoveryRatio = options.recoveryRatio ?? 0.8;
  if (options.contextWindow) compressor.setContextWindow(options.contextWindow);

  const tallies = shared ?? new ConversationTallies(counter);
  const pressure = new PressureWatch(compressor);
  let compaction: Compaction | undefined;
  let lastCount = 0;
  // After a compression that could not get under the threshold, wait for real growth before trying again.
  let retryAt = 0;
  let lastEmit = options.emit;
  let lastSignal: AbortSignal | undefined;
  let lastSent: { messages: Message[]; source: readonly Message[]; length: number } | undefined;

  const compactionFor = (messages: readonly Message[]): Compaction | undefined => {
    const c = compaction;
    if (c && messages.length >= c.length && messages[c.length - 1] === c.last && messages[0] === c.first)
      return c;
    compaction = undefined;
    return undefined;
  };

  const remember = (source: readonly Message[], length: number, result: CompressionResult) => {
    compaction = {
      length,
      first: source[0]!,
      last: source[length - 1]!,
      messages: result.messages,
      tokens: counter.countMessages(result.messages),
      compacted: result.method !== 'prune' || (compaction?.compacted ?? false),
    };
  };

  // The system prompt as sent: with the note once turns were compacted.
  const systemFor = (
    system: ModelRequest['system'],
    compacted = compaction?.compacted,
  ): ModelRequest['system'] => (compacted ? withCompactionNote(system) : system);
  const fixedOf = (request: ModelRequest): number =>
    counter.count({ system: systemFor(request.system), tools: request.tools, messages: [] });

  const finalRequest = (request: ModelRequest, messages: Message[], compacted?: boolean): ModelRequest => {
    const system = systemFor(request.system, compacted);
    if (messages === request.messages && system === request.system) return request;
    return { ...request, messages, system };
  };

  return {
    get lastCount() {
      return lastCount;
    },

    reset() {
      compaction = undefined;
      lastSent = undefined;
      lastCount = 0;
      retryAt = 0;
    },

    async prepareRequest(request, info = {}) {
      const source = request.messages;
      lastEmit = info.emit ?? options.emit;
      lastSignal = info.signal;
      const current = compactionFor(source);
      const base = current?.length ?? 0;
      let total = fixedOf(request) + (current?.tokens ?? 0) + tallies.count(source, base);
      let messages = current ? [...current.messages, ...source.slice(base)] : (source as Message[]);

      if (compressor.shouldCompress(total) && total >= retryAt) {
        const result = await compressor.compress(
          { system: systemFor(request.system), tools: request.tools, messages },
          { signal: info.signal, emit: lastEmit },
        );
        if (result.compressed) {
          remember(source, source.length, result);
          messages = result.messages;
          total = fixedOf(request) + compaction!.tokens;
        }
        retryAt = compressor.shouldCompress(total) ? total + Math.ceil(compressor.threshold * 0.1) : 0;
      }
      lastCount = total;
      pressure.check(total, lastEmit);
      const prepared = finalRequest(request, messages);
      lastSent = { messages: prepared.messages, source, length: source.length };
      return prepared;
    },

    async compressHook(request, info) {
      if (info.contextLimit && info.contextLimit < compressor.contextWindow) {
        compressor.setContextWindow(info.contextLimit, 'provider_error');
      }
      const before = counter.count(request);
      // The provider refused a request we counted as fitting: aim below our own count too.
      let target = Math.floor(before * (info.contextLimit ? 0.7 : 0.5));
      if (info.contextLimit) {
        const reserve = Math.min(request.maxOutputTokens ?? 0, Math.floor(info.contextLimit / 4));
        target = Math.min(target, Math.floor(info.contextLimit * recoveryRatio) - reserve);
      }
      const result = await compressor.compress(request, {
        targetTokens: Math.max(1, target),
        signal: lastSignal,
        emit: lastEmit,
      });
      if (!result.compressed || result.tokensAfter >= before) return undefined;
      const ours = lastSent !== undefined && request.messages === lastSent.messages;
      if (ours) remember(lastSent!.source, lastSent!.length, result);
      const recovered = finalRequest(request, result.messages, result.method !== 'prune');
      lastCount = counter.count(recovered);
      if (ours) lastSent = { ...lastSent!, messages: recovered.messages };
      return recovered;
    },
  };
}

/** Options of {@link contextPerConversation}: the compressor's, sharing one counter. */
export type ContextFactoryOptions = Omit<ContextCompressorOptions, 'emit'> & { recoveryRatio?: number };

/**
 * A factory of context managers, one per conversation, for the Executor's
 * `context` option: each execution gets its own compressor (its summary state
 * belongs to one conversation) while the token counter, with every cached
 * message count, and the running sums of each conversation are shared: a run
 * on a known history counts only what it adds.
 *
 * ```ts
 * new Executor({ model, context: { manager: contextPerConversation({ model, summarizer: flashModel }) } });
 * ```
 */
export function contextPerConversation(options: ContextFactoryOptions): () => ContextManager {
  const model = typeof options.model === 'string' ? options.model : options.model?.id;
  const counter = options.counter ?? new TokenCounter({ model });
  const tallies = new ConversationTallies(counter);
  const compressorOptions = { ...options, counter };
  return () =>
    managerWith(
      { compressor: new ContextCompressor(compressorOptions), recoveryRatio: options.recoveryRatio },
      tallies,
    );
}

/** Shares of the window at which users are warned (hermes' context pressure tiers). */
const PRESSURE_LEVELS = [
  { ratio: 0.9, level: 'critical' },
  { ratio: 0.7, level: 'warning' },
] as const;

/**
 * Warns once per tier as a conversation fills its window: a
 * `context_pressure` event for people (the model is not told), with where
 * the window's size came from — an assumed 128k on a small local model is
 * the usual reason a run fails later. Falling back under 70% (after a
 * compression) re-arms the warnings.
 */
class PressureWatch {
  private warned = 0;

  constructor(private readonly compressor: ContextCompressor) {}

  check(tokens: number, emit: Emitter | undefined): void {
    const window = this.compressor.contextWindow;
    const ratio = tokens / window;
    const tier = PRESSURE_LEVELS.findIndex((p) => ratio >= p.ratio);
    const rank = tier === -1 ? 0 : PRESSURE_LEVELS.length - tier;
    if (rank <= this.warned) {
      if (rank === 0) this.warned = 0;
      return;
    }
    this.warned = rank;
    const level = PRESSURE_LEVELS[tier]!.level;
    const source = this.compressor.windowSource;
    emit?.emit('context_pressure', {
      tokens,
      window,
      ratio: Math.round(ratio * 1000) / 1000,
      level,
      windowSource: source,
    });
  }
}
