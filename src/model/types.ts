/**
 * The model adapter contract. Versioned, plain data in and out: an adapter is
 * an object with `generate` and, optionally, `stream`.
 * @module
 */
import type { AssistantMessage, Message, ProviderMetadata } from '../core/messages.js';
import type { Usage } from '../core/usage.js';

/** Version of this contract; bumped on any breaking change to these types. */
export const MODEL_SPEC_VERSION = 1 as const;

/** A JSON Schema object, as providers take it. */
export type JsonSchema = Record<string, unknown>;

/**
 * How a model can be held to a JSON Schema (see docs/structured-output.md):
 * `json_schema`, the provider enforces the schema given as
 * `responseFormat.schema`; `tool`, the adapter forces a tool whose input is
 * the answer (Anthropic); `json`, the provider guarantees JSON but not its
 * shape (the schema travels in the prompt); `none`, the prompt alone.
 */
export type StructuredOutputMode = 'json_schema' | 'tool' | 'json' | 'none';

/** What a model can do and how much it holds. All fields optional. */
export interface ModelInfo {
  contextWindow?: number;
  maxOutputTokens?: number;
  supportsTools?: boolean;
  supportsJson?: boolean;
  /** How structured output is asked for. Default `json` when `supportsJson`, else `none`. */
  structuredOutput?: StructuredOutputMode;
  /**
   * One request may carry tools and a response format together, so an
   * agent's final answer comes from the same loop. When false, the answer is
   * formatted by one more call without tools. Default false.
   */
  structuredOutputWithTools?: boolean;
  supportsReasoning?: boolean;
  /** True for endpoints on this machine or LAN (local servers stream slowly; stale-stream detection is off). */
  local?: boolean;
  /**
   * Media types the model takes in user messages and tool results (`image/*`
   * wildcards allowed; `[]` for a text-only model). Adapters refuse other
   * parts with a `bad_request` ModelError before sending. Default: whatever
   * the adapter can map.
   */
  inputMediaTypes?: readonly string[];
}

/** The JSON a model must reply with; see {@link ModelRequest.responseFormat}. */
export interface ResponseFormat {
  type: 'json';
  schema?: JsonSchema;
  name?: string;
  /** What the value is, for providers that describe schemas (OpenAI, Anthropic's answer tool). */
  description?: string;
}

/** A tool as the model sees it. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: JsonSchema;
}

/** A block of the system prompt; `cache` marks a prompt-cache breakpoint candidate. */
export interface SystemPart {
  text: string;
  cache?: boolean;
}

/** Which tool the model must call. */
export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

/** One model call. */
export interface ModelRequest {
  /** The system prompt. Adapters put it where their provider wants it, never into a user message. */
  system?: string | SystemPart[];
  messages: Message[];
  tools?: ToolSpec[];
  toolChoice?: ToolChoice;
  /**
   * JSON output: with `schema`, held to it natively where the model can be
   * (`ModelInfo.structuredOutput`); `name` names the schema (OpenAI's
   * `json_schema.name`, Anthropic's answer tool). Default name `response`.
   */
  responseFormat?: ResponseFormat;
  temperature?: number;
  maxOutputTokens?: number;
  stop?: string[];
  /** Passed through to the named provider's request body (`{ openai: {...} }`). */
  providerOptions?: Record<string, Record<string, unknown>>;
}

/** Per-call options. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** Why the model stopped. */
export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'error';

/** A whole model reply. */
export interface ModelResponse {
  message: AssistantMessage;
  finishReason: FinishReason;
  usage: Usage;
  /** The provider's id of the response, when it gives one. */
  responseId?: string;
  providerMetadata?: ProviderMetadata;
  /**
   * The `id` of the {@link ChatModel} that produced the reply. The invokers
   * set it (adapters need not), so after a fallback it names the model that
   * answered, not the primary: usage and cost are booked to it.
   */
  model?: string;
}

/**
 * One piece of a streamed reply. Deltas of the same text or reasoning block
 * share an `id` when the provider distinguishes blocks; a change of id starts a
 * new part. Tool-call argument deltas are keyed by `index`; a complete
 * `tool-call` part may follow or replace them.
 */
export type ModelStreamPart =
  | { type: 'text-delta'; delta: string; id?: string }
  | {
      type: 'reasoning-delta';
      delta: string;
      id?: string;
      signature?: string;
      redacted?: string;
      providerMetadata?: ProviderMetadata;
    }
  | { type: 'tool-call-delta'; index: number; id?: string; name?: string; argsDelta: string }
  | {
      type: 'tool-call';
      id: string;
      name: string;
      arguments: string;
      index?: number;
      providerMetadata?: ProviderMetadata;
    }
  | {
      type: 'finish';
      finishReason: FinishReason;
      usage: Usage;
      responseId?: string;
      providerMetadata?: ProviderMetadata;
    };

/** A chat model: the one interface every provider adapter implements. */
export interface ChatModel {
  /** `provider:model`, e.g. `openai:gpt-4o-mini`. */
  readonly id: string;
  readonly info?: ModelInfo;
  generate(request: ModelRequest, options?: CallOptions): Promise<ModelResponse>;
  stream?(request: ModelRequest, options?: CallOptions): AsyncIterable<ModelStreamPart>;
}
