/**
 * Long-term memory of an agent (the `memory` option of `Executor` and
 * `Orchestrator`): the user's working memory in the system prompt with the
 * tool that updates it, and semantic recall — the earlier messages of the
 * user's other threads most like the request, put into the prompt as a
 * note — fed by embedding each run's messages when it settles.
 * @module
 */
import { ConfigError } from '../core/errors.js';
import type { Emitter } from '../core/events.js';
import type { Message } from '../core/messages.js';
import { type Runtime, resolveRuntime } from '../core/seams.js';
import { embedTexts } from '../model/embed.js';
import type { EmbeddingModel } from '../model/embedding.js';
import type { RetryOptions } from '../model/resilience/retry-policy.js';
import { jsonSchemaOf } from '../model/schema-json.js';
import type { SystemPart } from '../model/types.js';
import type { Tool } from '../tools/types.js';
import type { VectorStore, WorkingMemoryStore } from './memory-store.js';
import { recallNote, rememberedRecords } from './recall-text.js';
import {
  memoryErrorInfo,
  type WorkingMemoryOptions,
  type WorkingMemoryRun,
  workingMemorySection,
  workingMemoryTool,
} from './working-memory.js';

/** Options of semantic recall (`memory.recall`). */
export interface RecallOptions {
  /** Turns messages into vectors: `createOpenAIEmbedding`, `createGeminiEmbedding`, `fromAISDKEmbedding`. */
  embedder: EmbeddingModel;
  /** Most messages recalled into one run. Default 4. */
  topK?: number;
  /** Least cosine similarity of a recalled message. Default 0.5. */
  minScore?: number;
  /** Backoff of a failed embedding call (the chat models' defaults); `false`: one attempt. */
  retry?: RetryOptions | false;
}

/**
 * The `memory` option of `Executor` and `Orchestrator`. A run takes part
 * when it has a `resourceId` (the user); a run without a `threadId` is a
 * thread of its own.
 */
export interface MemoryOptions {
  /**
   * Where memory lives: a {@link WorkingMemoryStore} for working memory and a
   * {@link VectorStore} for recall — one object that is both
   * (`InMemoryMemoryStore`), a store with them as its `workingMemory` and
   * `vectors` (the SQL stores, Redis's stores), or one of them when only
   * that part is on.
   */
  store: MemoryStores;
  /** Working memory (on by default, as text notes); `false` turns it off. */
  working?: WorkingMemoryOptions | false;
  /** Semantic recall; off unless given an embedder. */
  recall?: RecallOptions | false;
}

/** What {@link MemoryOptions.store} takes. */
export type MemoryStores =
  | WorkingMemoryStore
  | VectorStore
  | { workingMemory?: WorkingMemoryStore; vectors?: VectorStore };

/** The ids a run takes part in memory with. */
export interface MemoryIds {
  runId: string;
  resourceId: string;
  threadId?: string;
}

/** One run's memory: what its prompt gets, and what its tool calls write over. */
export interface MemoryTurn extends WorkingMemoryRun {
  threadId: string;
  /** The recall note, when earlier messages were recalled. */
  note?: string;
}

const DEFAULT_TOP_K = 4;
const DEFAULT_MIN_SCORE = 0.5;

/** The memory of one `memory` option: shared by the agents given that option. */
export class LongTermMemory {
  /** The working memory tool, when working memory is on. */
  readonly tool: Tool | undefined;
  private readonly working: WorkingMemoryOptions | undefined;
  private readonly recall: RecallOptions | undefined;
  private readonly turns = new Map<string, MemoryTurn>();
  private readonly runtime: Runtime;
  private readonly workingStore: WorkingMemoryStore | undefined;
  private readonly vectors: VectorStore | undefined;

  /** @throws ConfigError when the store lacks what the parts turned on need, or a number is out of range. */
  constructor(options: MemoryOptions, runtime?: Partial<Runtime>) {
    this.runtime = resolveRuntime(runtime);
    this.working = options.working === false ? undefined : (options.working ?? {});
    this.recall = options.recall || undefined;
    const { working, vectors } = storesOf(options, this.working, this.recall);
    this.workingStore = working;
    this.vectors = vectors;
    this.tool =
      this.working &&
      working &&
      workingMemoryTool(
        { store: working, runOf: (id) => this.turns.get(id), now: () => this.runtime.clock.now() },
        this.working,
      );
    // Older zod schemas convert only once tandem's zod is loaded: start now, so the tool's spec has the notes' shape.
    const schema = this.working?.schema;
    if (schema) jsonSchemaOf(schema, 'memory.working.schema').catch(() => {});
  }

  /** The turn of a run that {@link LongTermMemory.open} opened and the run has not closed. */
  turnOf(runId: string): MemoryTurn | undefined {
    return this.turns.get(runId);
  }

  /**
   * Reads the resource's working memory and recalls earlier messages like
   * `query`. A part that fails is left out and reported as a `memory` event
   * with its error: memory never stops a run.
   */
  async open(
    ids: MemoryIds,
    query: string,
    context: { emit: Emitter; signal?: AbortSignal },
  ): Promise<MemoryTurn> {
    const turn: MemoryTurn = {
      resourceId: ids.resourceId,
      threadId: ids.threadId ?? ids.runId,
      version: 0,
      seen: new Map(),
    };
    this.turns.set(ids.runId, turn);
    const [section, note] = await Promise.all([
      this.readWorking(turn, context.emit),
      this.recallFor(turn, query, context),
    ]);
    if (section !== undefined) turn.section = section;
    if (note !== undefined) turn.note = note;
    return turn;
  }

  /**
   * Ends a run's turn; when it `succeeded`, embeds and stores its messages
   * (user requests and assistant answers) under its thread.
   */
  async close(
    ids: MemoryIds,
    run: { messages: readonly Message[]; succeeded: boolean; emit: Emitter; signal?: AbortSignal },
  ): Promise<void> {
    const turn = this.turns.get(ids.runId);
    this.turns.delete(ids.runId);
    if (!this.recall || !turn || !run.succeeded) return;
    const pending = rememberedRecords(
      run.messages,
      { ...ids, threadId: turn.threadId },
      this.runtime.clock.now(),
    );
    if (pending.length === 0) return;
    try {
      const vectors = await embedTexts(
        this.recall.embedder,
        pending.map((record) => record.text),
        this.embedOptions(run.signal),
      );
      const records = pending.map((record, i) => ({ ...record, vector: vectors[i]! }));
      await this.vectors!.upsert(records);
      run.emit.emit('memory', { op: 'remember', count: records.length });
    } catch (error) {
      run.emit.emit('memory', { op: 'remember', error: memoryErrorInfo(error) });
    }
  }

  private async readWorking(turn: MemoryTurn, emit: Emitter): Promise<string | undefined> {
    if (!this.working) return undefined;
    try {
      const record = await this.workingStore!.get(turn.resourceId);
      turn.version = record?.version ?? 0;
      return workingMemorySection(record, this.working);
    } catch (error) {
      emit.emit('memory', { op: 'working_memory', error: memoryErrorInfo(error) });
      return undefined;
    }
  }

  private async recallFor(
    turn: MemoryTurn,
    query: string,
    context: { emit: Emitter; signal?: AbortSignal },
  ): Promise<string | undefined> {
    const recall = this.recall;
    if (!recall || !query.trim()) return undefined;
    try {
      const [vector] = await embedTexts(recall.embedder, [query], this.embedOptions(context.signal));
      const matches = await this.vectors!.query({
        vector: vector!,
        topK: recall.topK ?? DEFAULT_TOP_K,
        minScore: recall.minScore ?? DEFAULT_MIN_SCORE,
        resourceId: turn.resourceId,
        excludeThreadId: turn.threadId,
      });
      context.emit.emit('memory', { op: 'recall', count: matches.length });
      return matches.length > 0 ? recallNote(matches) : undefined;
    } catch (error) {
      if (context.signal?.aborted) throw error;
      context.emit.emit('memory', { op: 'recall', error: memoryErrorInfo(error) });
      return undefined;
    }
  }

  private embedOptions(signal: AbortSignal | undefined) {
    return { signal, retry: this.recall?.retry, runtime: this.runtime };
  }
}

/**
 * `system` with a turn's memory: the working memory section right after the
 * cached prefix (its own cached part: it changes only when the model updates
 * it, so the prefix before it stays byte-identical), the recall note last,
 * uncached (it is made for each run's request).
 */
export function systemWithMemory(
  system: string | SystemPart[] | undefined,
  turn: MemoryTurn,
): string | SystemPart[] | undefined {
  if (turn.section === undefined && turn.note === undefined) return system;
  const parts: SystemPart[] =
    typeof system === 'string' ? (system ? [{ text: system, cache: true }] : []) : (system?.slice() ?? []);
  if (turn.section !== undefined) {
    let at = parts.length;
    while (at > 0 && !parts[at - 1]!.cache) at--;
    parts.splice(at, 0, { text: turn.section, cache: true });
  }
  if (turn.note !== undefined) parts.push({ text: turn.note });
  return parts;
}

const memories = new WeakMap<MemoryOptions, LongTermMemory>();

/** The memory of `options`: one per options object, so an orchestrator and its executors share their runs' turns. */
export function memoryOf(options: MemoryOptions, runtime?: Partial<Runtime>): LongTermMemory {
  let memory = memories.get(options);
  if (!memory) memories.set(options, (memory = new LongTermMemory(options, runtime)));
  return memory;
}

/**
 * The stores of the parts turned on, found on `options.store` itself or its
 * `workingMemory` / `vectors`.
 * @throws ConfigError when a part that is on has no store, or a recall number is out of range.
 */
function storesOf(
  options: MemoryOptions,
  working: WorkingMemoryOptions | undefined,
  recall: RecallOptions | undefined,
): { working?: WorkingMemoryStore; vectors?: VectorStore } {
  const store = options?.store as (MemoryStores & { workingMemory?: unknown; vectors?: unknown }) | undefined;
  if (!store) throw new ConfigError('memory: `store` is required (e.g. new InMemoryMemoryStore())');
  const found = {
    working: isWorkingStore(store)
      ? store
      : isWorkingStore(store.workingMemory)
        ? store.workingMemory
        : undefined,
    vectors: isVectorStore(store) ? store : isVectorStore(store.vectors) ? store.vectors : undefined,
  };
  if (working && !found.working) {
    throw new ConfigError(
      'memory: working memory needs a WorkingMemoryStore (get/set/delete) as `store` or its `workingMemory`; pass `working: false` to turn it off',
    );
  }
  if (recall) checkRecall(recall, found.vectors);
  return found;
}

function checkRecall(recall: RecallOptions, vectors: VectorStore | undefined): void {
  if (!vectors)
    throw new ConfigError('memory: recall needs a VectorStore (upsert/query) as `store` or its `vectors`');
  if (typeof recall.embedder?.embed !== 'function')
    throw new ConfigError('memory.recall: `embedder` is required');
  const topK = recall.topK ?? DEFAULT_TOP_K;
  if (!Number.isInteger(topK) || topK < 1) {
    throw new ConfigError(`memory.recall.topK must be an integer ≥ 1, got ${topK}`);
  }
  const minScore = recall.minScore ?? DEFAULT_MIN_SCORE;
  if (!(minScore >= -1 && minScore <= 1)) {
    throw new ConfigError(`memory.recall.minScore must be in [-1, 1], got ${minScore}`);
  }
}

function isWorkingStore(value: unknown): value is WorkingMemoryStore {
  const store = value as Partial<WorkingMemoryStore> | undefined;
  return (
    typeof store?.get === 'function' && typeof store.set === 'function' && typeof store.delete === 'function'
  );
}

function isVectorStore(value: unknown): value is VectorStore {
  const store = value as Partial<VectorStore> | undefined;
  return typeof store?.query === 'function' && typeof store.upsert === 'function';
}
