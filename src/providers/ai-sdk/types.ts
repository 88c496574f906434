/**
 * The AI SDK language model specification as tandem uses it: structural types
 * of the fields it writes and reads in spec v2 (`ai` 5), v3 (`ai` 6) and v4
 * (`ai` 7). They are written here rather than derived from `ai`, because the
 * one `ai` major a project installs types only its own majors' models, while
 * `fromAISDK` takes all three; a test checks every real major against them.
 * Only the public {@link AISDKLanguageModel} refers to `ai` (as a type).
 * @module
 */
import type { LanguageModel } from 'ai';
import type { ProviderMetadata } from '../../core/messages.js';
import type { JsonSchema } from '../../model/types.js';

/** Any AI SDK language model object, as the installed `ai` types it (`LanguageModelV2`, `V3` and, from `ai` 7, `V4`). */
export type AISDKLanguageModel = Exclude<LanguageModel, string>;

/** The specification versions `fromAISDK` maps. */
export type SpecVersion = 'v2' | 'v3' | 'v4';

/** A JSON value as spec v2 types it: the strictest of the three, so valid in each. */
export type JSONValue = null | string | number | boolean | JSONObject | JSONValue[];

/** A JSON object (see {@link JSONValue}). */
export interface JSONObject {
  [key: string]: JSONValue;
}

/** Provider options sent with a call, a message or a part, keyed by provider name. */
export type ProviderOptions = Record<string, JSONObject>;

type WithOptions<T> = T & { providerOptions?: ProviderOptions };

/** A part of an assistant message in the prompt. */
export type AssistantPromptPart =
  | WithOptions<{ type: 'text'; text: string }>
  | WithOptions<{ type: 'reasoning'; text: string }>
  | WithOptions<{ type: 'tool-call'; toolCallId: string; toolName: string; input: unknown }>;

/** File data as spec v2 and v3 take it: bytes, base64 text or a URL. */
export type FileDataV2 = Uint8Array | string | URL;

/** File data as spec v4 takes it: tagged bytes or a tagged URL. */
export type FileDataV4 = { type: 'data'; data: Uint8Array | string } | { type: 'url'; url: URL };

/** An image or file in a user message, with the data shape of one spec version. */
export interface FilePromptPart<Data> {
  type: 'file';
  data: Data;
  mediaType: string;
  filename?: string;
}

/** An item of a v2 tool result's `content` output: text, or base64 media. */
export type ToolContentV2 =
  | { type: 'text'; text: string }
  | { type: 'media'; data: string; mediaType: string };

/** An item of a v3 tool result's `content` output. */
export type ToolContentV3 =
  | { type: 'text'; text: string }
  | { type: 'image-data'; data: string; mediaType: string }
  | { type: 'file-data'; data: string; mediaType: string; filename?: string }
  | { type: 'image-url'; url: string }
  | { type: 'file-url'; url: string; mediaType?: string };

/** An item of a v4 tool result's `content` output. */
export type ToolContentV4 =
  | { type: 'text'; text: string }
  | { type: 'file'; data: FileDataV4; mediaType: string; filename?: string };

/** A tool result in the prompt: text, error text, or (with attachments) a content list. */
export interface ToolResultPromptPart<Content> {
  type: 'tool-result';
  toolCallId: string;
  toolName: string;
  output: { type: 'text' | 'error-text'; value: string } | { type: 'content'; value: Content[] };
}

/** One message of the prompt, with the file shapes of one spec version. */
export type PromptMessage<Data = FileDataV2, Content = ToolContentV2> = WithOptions<
  | { role: 'system'; content: string }
  | { role: 'user'; content: Array<{ type: 'text'; text: string } | FilePromptPart<Data>> }
  | { role: 'assistant'; content: AssistantPromptPart[] }
  | { role: 'tool'; content: ToolResultPromptPart<Content>[] }
>;

/** A function tool offered to the model. */
export interface FunctionTool {
  type: 'function';
  name: string;
  description?: string;
  inputSchema: JsonSchema;
}

/**
 * Options of one `doGenerate` / `doStream` call. The versions differ only in
 * how images and files travel; {@link CallOptions} is any of the three.
 */
export interface CallOptionsOf<Data, Content> {
  prompt: PromptMessage<Data, Content>[];
  tools?: FunctionTool[];
  toolChoice?: { type: 'auto' | 'none' | 'required' } | { type: 'tool'; toolName: string };
  responseFormat?: { type: 'json'; schema?: JsonSchema; name?: string; description?: string };
  temperature?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  providerOptions?: ProviderOptions;
  abortSignal?: AbortSignal;
}

/** Call options of spec v2 (`ai` 5). */
export type CallOptionsV2 = CallOptionsOf<FileDataV2, ToolContentV2>;

/** Call options of spec v3 (`ai` 6). */
export type CallOptionsV3 = CallOptionsOf<FileDataV2, ToolContentV3>;

/** Call options of spec v4 (`ai` 7). */
export type CallOptionsV4 = CallOptionsOf<FileDataV4, ToolContentV4>;

/** Call options of any supported spec version. */
export type CallOptions = CallOptionsV2 | CallOptionsV3 | CallOptionsV4;

/** v2 usage: flat counts. */
export interface UsageV2 {
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  cachedInputTokens?: number | undefined;
  reasoningTokens?: number | undefined;
}

/** v3 and v4 usage: counts grouped by input and output. */
export interface UsageV3 {
  inputTokens: { total: number | undefined; cacheRead: number | undefined };
  outputTokens: { total: number | undefined; reasoning: number | undefined };
}

/** A finish reason: a v2 string, or a v3/v4 `{ unified, raw }`. */
export type SpecFinishReason = string | { unified: string; raw: string | undefined };

/** A tool call the model made (client-side unless `providerExecuted`). */
export interface ToolCallContent {
  type: 'tool-call';
  toolCallId: string;
  toolName: string;
  /** The JSON text of the input. */
  input: string;
  providerExecuted?: boolean;
  providerMetadata?: ProviderMetadata;
}

/** Content parts tandem has no place for (each version adds some; v4: `custom`, `reasoning-file`). */
interface IgnoredContent {
  type: 'file' | 'source' | 'tool-result' | 'tool-approval-request' | 'custom' | 'reasoning-file';
}

/** One part of a `doGenerate` result's content. */
export type SpecContent =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string; providerMetadata?: ProviderMetadata }
  | ToolCallContent
  | IgnoredContent;

/** A `doGenerate` result. */
export interface GenerateResult {
  content: SpecContent[];
  finishReason: SpecFinishReason;
  usage: UsageV2 | UsageV3;
  /** v4: the text to parse for JSON output when it is not all the text parts joined. */
  structuredOutputText?: string;
  providerMetadata?: ProviderMetadata;
  response?: { id?: string };
}

/** Stream parts tandem has no use for (v4 adds `ping`, `custom`, `reasoning-file`). */
interface IgnoredStreamPart {
  type:
    | 'text-start'
    | 'text-end'
    | 'tool-input-end'
    | 'stream-start'
    | 'raw'
    | 'ping'
    | IgnoredContent['type'];
}

/** One part of a `doStream` stream. */
export type SpecStreamPart =
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'reasoning-start' | 'reasoning-end'; id: string; providerMetadata?: ProviderMetadata }
  | { type: 'reasoning-delta'; id: string; delta: string; providerMetadata?: ProviderMetadata }
  | { type: 'tool-input-start'; id: string; toolName: string; providerExecuted?: boolean }
  | { type: 'tool-input-delta'; id: string; delta: string }
  | ToolCallContent
  | { type: 'response-metadata'; id?: string }
  | {
      type: 'finish';
      usage: UsageV2 | UsageV3;
      finishReason: SpecFinishReason;
      providerMetadata?: ProviderMetadata;
    }
  | { type: 'error'; error: unknown }
  | IgnoredStreamPart;

/**
 * A language model of any of the three versions, as far as tandem calls it
 * (`Options`: the call options of one version, for checking a real model's types).
 */
export interface SpecModel<Options = CallOptions> {
  readonly specificationVersion: string;
  readonly provider: string;
  readonly modelId: string;
  doGenerate(options: Options): PromiseLike<GenerateResult>;
  doStream(options: Options): PromiseLike<{ stream: ReadableStream<SpecStreamPart> }>;
}
