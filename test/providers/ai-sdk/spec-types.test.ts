/**
 * The structural spec types of `src/providers/ai-sdk/types.ts` against the
 * real provider packages of each AI SDK major. These are type assertions:
 * `tsc` (npm run typecheck) fails when a major's shapes drift from them.
 */
import type { OpenAICompatibleChatLanguageModel as ModelV2 } from 'ai-provider-v2';
import type { OpenAICompatibleChatLanguageModel as ModelV3 } from 'ai-provider-v3';
import type { OpenAICompatibleChatLanguageModel as ModelV4 } from 'ai-provider-v4';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  CallOptionsV2,
  CallOptionsV3,
  CallOptionsV4,
  SpecModel,
} from '../../../src/providers/ai-sdk/types.js';

describe('AI SDK spec types', () => {
  it('read every real model of spec v2, v3 and v4: its results and stream parts fit', () => {
    expectTypeOf<ModelV2>().toExtend<SpecModel<CallOptionsV2>>();
    expectTypeOf<ModelV3>().toExtend<SpecModel<CallOptionsV3>>();
    expectTypeOf<ModelV4>().toExtend<SpecModel<CallOptionsV4>>();
  });

  it('build call options, image and file parts included, that each version accepts', () => {
    expectTypeOf<CallOptionsV2>().toExtend<Parameters<ModelV2['doGenerate']>[0]>();
    expectTypeOf<CallOptionsV3>().toExtend<Parameters<ModelV3['doGenerate']>[0]>();
    expectTypeOf<CallOptionsV4>().toExtend<Parameters<ModelV4['doGenerate']>[0]>();
  });
});
