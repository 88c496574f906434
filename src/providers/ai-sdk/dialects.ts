/**
 * What differs between the AI SDK specification versions, one row per
 * version: how images and files travel in the prompt (v2/v3 file data is
 * bytes, base64 or a `URL`, v4 tags it; tool-result media is v2 `media`,
 * v3 `image-data`/`file-data`/`…-url`, v4 `file`), and the results: usage
 * (v2 flat counts, v3/v4 grouped), finish reasons (v2 strings, v3/v4
 * `{ unified, raw }`) and v4's `structuredOutputText`.
 * @module
 */
import { mediaBase64 } from '../../core/media.js';
import type { MediaPart } from '../../core/messages.js';
import type { Usage } from '../../core/usage.js';
import type {
  FileDataV2,
  FileDataV4,
  FilePromptPart,
  GenerateResult,
  SpecFinishReason,
  SpecVersion,
  ToolContentV2,
  ToolContentV3,
  ToolContentV4,
  UsageV2,
  UsageV3,
} from './types.js';

/** How one specification version takes images and files, and reports what tandem reads back. */
export interface SpecDialect {
  /** An image or file of a user message. */
  userFile(part: MediaPart): FilePromptPart<FileDataV2> | FilePromptPart<FileDataV4>;
  /** An attachment of a tool result as an item of its `content` output; `undefined` when the version cannot carry it. */
  toolFile(part: MediaPart): ToolContentV2 | ToolContentV3 | ToolContentV4 | undefined;
  usage(usage: UsageV2 | UsageV3 | undefined): Usage;
  /** The unified finish reason (`stop`, `tool-calls`, `interrupted`, …). */
  finishReason(reason: SpecFinishReason | undefined): string | undefined;
  /** The text a JSON reply is parsed from, when it is not all the text parts joined. */
  structuredText(result: GenerateResult): string | undefined;
}

function named<T extends object>(value: T, filename: string | undefined): T {
  return filename === undefined ? value : { ...value, filename };
}

function fileV2(part: MediaPart): FilePromptPart<FileDataV2> {
  const data = part.url !== undefined ? new URL(part.url) : (part.data ?? '');
  return named({ type: 'file' as const, data, mediaType: part.mediaType }, part.filename);
}

function dataV4(part: MediaPart, asBase64 = false): FileDataV4 {
  if (part.url !== undefined) return { type: 'url', url: new URL(part.url) };
  const data = part.data ?? '';
  return { type: 'data', data: asBase64 ? mediaBase64(data) : data };
}

function fileV4(part: MediaPart): FilePromptPart<FileDataV4> {
  return named({ type: 'file' as const, data: dataV4(part), mediaType: part.mediaType }, part.filename);
}

// v2 tool results carry media as base64 only.
function toolFileV2(part: MediaPart): ToolContentV2 | undefined {
  if (part.data === undefined) return undefined;
  return { type: 'media', data: mediaBase64(part.data), mediaType: part.mediaType };
}

function toolFileV3(part: MediaPart): ToolContentV3 {
  if (part.url !== undefined) {
    return part.type === 'image'
      ? { type: 'image-url', url: part.url }
      : { type: 'file-url', url: part.url, mediaType: part.mediaType };
  }
  const data = mediaBase64(part.data ?? '');
  if (part.type === 'image') return { type: 'image-data', data, mediaType: part.mediaType };
  return named({ type: 'file-data' as const, data, mediaType: part.mediaType }, part.filename);
}

// Bytes as base64: providers that cannot place tool-result media send the output as JSON text.
function toolFileV4(part: MediaPart): ToolContentV4 {
  return named({ type: 'file' as const, data: dataV4(part, true), mediaType: part.mediaType }, part.filename);
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function flatUsage(usage: UsageV2 | UsageV3 | undefined): Usage {
  const flat = usage as UsageV2 | undefined;
  return {
    inputTokens: count(flat?.inputTokens),
    outputTokens: count(flat?.outputTokens),
    cachedInputTokens: count(flat?.cachedInputTokens),
    reasoningTokens: count(flat?.reasoningTokens),
  };
}

function groupedUsage(usage: UsageV2 | UsageV3 | undefined): Usage {
  const grouped = usage as Partial<UsageV3> | undefined;
  return {
    inputTokens: count(grouped?.inputTokens?.total),
    outputTokens: count(grouped?.outputTokens?.total),
    cachedInputTokens: count(grouped?.inputTokens?.cacheRead),
    reasoningTokens: count(grouped?.outputTokens?.reasoning),
  };
}

const stringReason = (reason: SpecFinishReason | undefined) => reason as string | undefined;
const unifiedReason = (reason: SpecFinishReason | undefined) =>
  (reason as { unified?: string } | undefined)?.unified;
const none = (): undefined => undefined;

/** The dialect of each supported version. */
export const DIALECTS: Readonly<Record<SpecVersion, SpecDialect>> = {
  v2: {
    userFile: fileV2,
    toolFile: toolFileV2,
    usage: flatUsage,
    finishReason: stringReason,
    structuredText: none,
  },
  v3: {
    userFile: fileV2,
    toolFile: toolFileV3,
    usage: groupedUsage,
    finishReason: unifiedReason,
    structuredText: none,
  },
  v4: {
    userFile: fileV4,
    toolFile: toolFileV4,
    usage: groupedUsage,
    finishReason: unifiedReason,
    structuredText: (result) => result.structuredOutputText,
  },
};

/** The dialect of `version`, or `undefined` for a version tandem does not map. */
export function dialectOf(version: unknown): SpecDialect | undefined {
  return typeof version === 'string' && Object.hasOwn(DIALECTS, version)
    ? DIALECTS[version as SpecVersion]
    : undefined;
}
