/**
 * The structural spec types of `src/providers/ai-sdk/types.ts` against the
 * real provider packages of each AI SDK major. These are type assertions:
 * `tsc` (npm run typecheck) fails when a major's shapes drift from them.
 */
import type { OpenAICompatibleChatLanguageModel as ModelV2 } from 'ai-provider-v2';
import type { OpenAICompatibleChatLanguageModel as ModelV3 } from 'ai-provider-v3';
import type { OpenAICompatibleChatLanguageModel as ModelV4 } from 'ai-provider-v4';
import { describe, expectTypeOf, it } from 'vitest';
import type { CallOptions, SpecModel } from '../../../src/providers/ai-sdk/types.js';

describe('AI SDK spec types', () => {
  it('read every real model of spec v2, v3 and v4: its results and stream parts fit', () => {
    expectTypeOf<ModelV2>().toExtend<SpecModel>();
    expectTypeOf<ModelV3>().toExtend<SpecModel>();
    expectTypeOf<ModelV4>().toExtend<SpecModel>();
  });

  it('build call options every version accepts', () => {
    expectTypeOf<CallOptions>().toExtend<Parameters<ModelV2['doGenerate']>[0]>();
    expectTypeOf<CallOptions>().toExtend<Parameters<ModelV3['doGenerate']>[0]>();
    expectTypeOf<CallOptions>().toExtend<Parameters<ModelV4['doGenerate']>[0]>();
  });
});
