/**
 * What differs between the AI SDK specification versions, one row per
 * version. Call options are the same for everything tandem sends; only the
 * results differ: usage (v2 flat counts, v3/v4 grouped), finish reasons (v2
 * strings, v3/v4 `{ unified, raw }`) and v4's `structuredOutputText`.
 * @module
 */
import type { Usage } from '../../core/usage.js';
import type { GenerateResult, SpecFinishReason, SpecVersion, UsageV2, UsageV3 } from './types.js';

/** How one specification version reports what tandem reads back. */
export interface SpecDialect {
  usage(usage: UsageV2 | UsageV3 | undefined): Usage;
  /** The unified finish reason (`stop`, `tool-calls`, `interrupted`, …). */
  finishReason(reason: SpecFinishReason | undefined): string | undefined;
  /** The text a JSON reply is parsed from, when it is not all the text parts joined. */
  structuredText(result: GenerateResult): string | undefined;
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
  v2: { usage: flatUsage, finishReason: stringReason, structuredText: none },
  v3: { usage: groupedUsage, finishReason: unifiedReason, structuredText: none },
  v4: {
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
