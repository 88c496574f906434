/**
 * The AI SDK's language model spec types, derived from `ai`'s own
 * `LanguageModel` so only the peer dependency users install is referenced
 * (and only as types: nothing of `ai` is loaded at runtime).
 * @module
 */
import type { LanguageModel } from 'ai';

/** Any AI SDK language model object (a `LanguageModelV2` or `LanguageModelV3`). */
export type AISDKLanguageModel = Exclude<LanguageModel, string>;

/** An AI SDK `LanguageModelV3` (`ai` 6). */
export type LanguageModelV3 = Extract<AISDKLanguageModel, { specificationVersion: 'v3' }>;

/** An AI SDK `LanguageModelV2` (`ai` 5). */
export type LanguageModelV2 = Extract<AISDKLanguageModel, { specificationVersion: 'v2' }>;

/** Call options of `doGenerate` / `doStream`; the v2 shape is a subset of the v3 one tandem builds. */
export type CallOptionsV3 = Parameters<LanguageModelV3['doGenerate']>[0];

/** One message of a v3 prompt. */
export type PromptMessageV3 = CallOptionsV3['prompt'][number];

/** Result of `doGenerate`, of either spec version. */
export type GenerateResult =
  | Awaited<ReturnType<LanguageModelV3['doGenerate']>>
  | Awaited<ReturnType<LanguageModelV2['doGenerate']>>;

/** One part of a `doStream` stream, of either spec version. */
export type StreamPart =
  | (Awaited<ReturnType<LanguageModelV3['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never)
  | (Awaited<ReturnType<LanguageModelV2['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never);

/** Usage as either spec version reports it: v2 numbers, v3 `{ total, cacheRead, … }` objects. */
export type SpecUsage = GenerateResult['usage'];

/** Finish reason as either spec version reports it: a v2 string or a v3 `{ unified, raw }`. */
export type SpecFinishReason = GenerateResult['finishReason'];
