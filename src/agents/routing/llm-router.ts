/**
 * The LLM router: picks the registered agent best suited to a query. An
 * explicit mode naming an agent bypasses the model. The reply
 * `{agent, confidence, reason}` is validated against the agent names; an
 * unknown agent or a failed call routes to the default agent, so routing never
 * throws except on abort.
 * @module
 */
import { ConfigError, errorMessage } from '../../core/errors.js';
import type { Emitter, EventPayloads } from '../../core/events.js';
import type { Message } from '../../core/messages.js';
import { conversationView, framedMessage, type UserContent } from '../../core/run-input.js';
import { type Clock, type Runtime, resolveRuntime } from '../../core/seams.js';
import { addUsage, emptyUsage, type Usage } from '../../core/usage.js';
import { answeringModelId, type ModelInvoker } from '../../model/invoke.js';
import { DEFAULT_RETRY_DELAYS_MS, generateObject, StructuredOutputError } from '../../model/json.js';
import { zodBuilt } from '../../model/lazy-zod.js';
import { directInvoker } from '../../model/resilience/resilient-invoker.js';
import type { ChatModel } from '../../model/types.js';
import { type AgentDescriptor, defaultRouterPrompt } from './router-prompt.js';

/** Options of a {@link Router}. */
export interface RouterOptions {
  /** The routing model (a fast, cheap tier suits it). */
  model: ChatModel;
  /** Default `directInvoker(model)`. */
  invoker?: ModelInvoker;
  /** The agents to choose from. */
  agents: readonly AgentDescriptor[];
  /** Where unknown answers and failures go. Must be one of `agents`. */
  defaultAgent: string;
  /** Confidence below this is flagged `lowConfidence`. Default 0.5. */
  lowConfidenceThreshold?: number;
  /** Confidence assumed when the reply gives none. Default 0.8. */
  defaultConfidence?: number;
  /** Model calls per routing, re-asks included. Default 1 (routing is on the critical path). */
  attempts?: number;
  /** Waits between attempts. Default `[2500, 3750]`. */
  retryDelaysMs?: readonly number[];
  /** Replaces the system prompt. Default {@link defaultRouterPrompt}. */
  prompt?: (agents: readonly AgentDescriptor[]) => string;
  /** Clock for the waits between attempts. */
  runtime?: Partial<Runtime>;
}

/** Per-call options of {@link Router.route}. */
export interface RouteOptions {
  /** An explicit mode; when it names an agent, that agent is chosen without a model call. */
  mode?: string;
  signal?: AbortSignal;
  /** Receives `retry` events and one `usage` event per routing call. */
  emit?: Emitter;
  /** Added into in place with the call's usage. */
  usage?: Usage;
  /** The conversation before the query: its user and assistant text, images and files go to the model first. */
  history?: readonly Message[];
}

/** A routing decision: the `routing` event payload, plus a message to show the user when confidence is low. */
export type RouteResult = EventPayloads['routing'] & {
  /** Set with `lowConfidence`: a hint for the user. */
  message?: string;
};

const replySchema = zodBuilt((z) =>
  z.object({
    agent: z.string().trim().min(1, '"agent" must name one of the agents'),
    confidence: z
      .unknown()
      .transform((v) =>
        typeof v === 'number' ? v : typeof v === 'string' ? Number.parseFloat(v) : undefined,
      ),
    reason: z.string().default(''),
  }),
);

// Replies in the seed's legacy text format: "AGENT: code | REASON: ...".
// The same patterns salvage an agent from JSON the parser rejected.
const LEGACY_AGENT = /\bagent["']?\s*[:=]\s*["']?([\w-]+)/i;
const LEGACY_REASON = /\breason["']?\s*[:=]\s*["']?([^"'\n|]+)/i;

/**
 * The router.
 *
 * ```ts
 * const router = new Router({ model, agents: [{ name: 'chat', description: '...' }, ...], defaultAgent: 'chat' });
 * const routing = await router.route(query, { signal });
 * emit.emit('routing', routing);
 * ```
 */
export class Router {
  readonly invoker: ModelInvoker;
  readonly agents: readonly AgentDescriptor[];
  readonly defaultAgent: string;
  /** Usage of every routing call, added in place. */
  readonly usage: Usage = emptyUsage();
  private readonly names: ReadonlyMap<string, string>;
  private readonly threshold: number;
  private readonly defaultConfidence: number;
  private readonly attempts: number;
  private readonly delays: readonly number[];
  private readonly system: string;
  private readonly clock: Clock;

  constructor(options: RouterOptions) {
    this.names = new Map(options.agents.map((a) => [a.name.toLowerCase(), a.name]));
    if (!this.names.has(options.defaultAgent.toLowerCase())) {
      throw new ConfigError(`Router: defaultAgent "${options.defaultAgent}" is not one of the agents`);
    }
    this.invoker = options.invoker ?? directInvoker(options.model);
    this.agents = options.agents;
    this.defaultAgent = this.names.get(options.defaultAgent.toLowerCase())!;
    this.threshold = options.lowConfidenceThreshold ?? 0.5;
    this.defaultConfidence = options.defaultConfidence ?? 0.8;
    this.attempts = options.attempts ?? 1;
    this.delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.system = (options.prompt ?? defaultRouterPrompt)(options.agents);
    this.clock = resolveRuntime(options.runtime).clock;
  }

  /**
   * Routes `query` (text, or parts with images and files) in the light of
   * `options.history`. Never throws except on abort: failures route to the
   * default agent with confidence 0 and `method: 'default'`.
   * @throws {AbortError} when `signal` aborts.
   */
  async route(query: UserContent, options: RouteOptions = {}): Promise<RouteResult> {
    const explicit = options.mode ? this.names.get(options.mode.trim().toLowerCase()) : undefined;
    if (explicit)
      return { agent: explicit, confidence: 1, reason: 'Explicit mode selection', method: 'explicit' };
    const usage = emptyUsage();
    // Booked to the model that answered: after a fallback, not the primary.
    let model = this.invoker.id;
    try {
      const { object } = await generateObject({
        invoker: this.invoker,
        request: {
          system: this.system,
          messages: [...conversationView(options.history), framedMessage(query, 'Query: ')],
        },
        schema: await replySchema.load(),
        expect: 'object',
        attempts: this.attempts,
        delays: this.delays,
        clock: this.clock,
        signal: options.signal,
        emit: options.emit,
        usage,
        onResponse: (response) => {
          model = answeringModelId(response, this.invoker);
        },
      });
      return this.decision(object.agent, object.confidence, object.reason);
    } catch (error) {
      if (!(error instanceof StructuredOutputError)) throw error;
      const legacy = error.text?.match(LEGACY_AGENT)?.[1];
      if (legacy && error.kind !== 'model_failed') {
        return this.decision(legacy, undefined, error.text?.match(LEGACY_REASON)?.[1]?.trim() ?? '');
      }
      return this.flag({
        agent: this.defaultAgent,
        confidence: 0,
        reason: `Default (routing error: ${errorMessage(error)})`,
        method: 'default',
      });
    } finally {
      addUsage(this.usage, usage);
      if (options.usage) addUsage(options.usage, usage);
      // Without the event, a routed run's total would leave the routing call out.
      options.emit?.emit('usage', { model, usage, total: { ...this.usage } });
    }
  }

  private decision(agent: string, confidence: number | undefined, reason: string): RouteResult {
    const name = this.names.get(agent.toLowerCase());
    if (!name) {
      return this.flag({
        agent: this.defaultAgent,
        confidence: 0,
        reason: `Default (unknown agent "${agent}")${reason ? `: ${reason}` : ''}`,
        method: 'default',
      });
    }
    return this.flag({
      agent: name,
      confidence: normalise(confidence, this.defaultConfidence),
      reason,
      method: 'llm',
    });
  }

  private flag(result: RouteResult): RouteResult {
    if (result.confidence >= this.threshold) return result;
    const percent = Math.round(result.confidence * 100);
    return {
      ...result,
      lowConfidence: true,
      message: `Low confidence (${percent}%) routing to ${result.agent}. If the response doesn't match your intent, try rephrasing your query.`,
    };
  }
}

/** A confidence in [0, 1]; percentages (1 < c ≤ 100) are scaled, anything unusable becomes `fallback`. */
function normalise(confidence: number | undefined, fallback: number): number {
  if (confidence === undefined || !Number.isFinite(confidence)) return fallback;
  const scaled = confidence > 1 && confidence <= 100 ? confidence / 100 : confidence;
  return Math.min(1, Math.max(0, scaled));
}
