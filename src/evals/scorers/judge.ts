/**
 * LLM-as-judge: a model grades each output against a rubric, answering in a
 * structured verdict (the repository's structured-output path, re-asking on
 * an unusable reply), and reports what judging cost.
 * @module
 */
import { userMessage } from '../../core/messages.js';
import { costOf, type PriceTable, priceLookup } from '../../core/pricing.js';
import { generateObject } from '../../model/json-generate.js';
import { loadZod } from '../../model/lazy-zod.js';
import { directInvoker } from '../../model/resilience/resilient-invoker.js';
import type { ChatModel } from '../../model/types.js';
import type { Scorer } from '../types.js';

/** Options of {@link llmJudge}. */
export interface JudgeOptions {
  /** Any chat model; its reply must be `{ "score": 0..1, "reason": "…" }`. */
  model: ChatModel;
  /** What a good answer is, in words the judge can apply. */
  rubric: string;
  name?: string;
  /** Passing score. Default 0.5. */
  threshold?: number;
  /** Prices to turn the judge's tokens into cost (merged over the built-in table). */
  prices?: PriceTable;
  /** Model calls, re-asks included, before the scorer gives 0. Default 2. */
  attempts?: number;
}

const SYSTEM =
  'You are an impartial grader. Grade the answer strictly by the rubric. Reply with JSON ' +
  '{"score": number between 0 and 1, "reason": one or two sentences}.';

function shown(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/**
 * A scorer that asks `model` to grade each output by `rubric`. The score's
 * `usage` holds the judge's own tokens and, when priced, cost.
 */
export function llmJudge(options: JudgeOptions): Scorer {
  const prices = priceLookup(options.prices ?? {});
  return {
    name: options.name ?? 'judge',
    threshold: options.threshold ?? 0.5,
    score: async ({ case: c, output, signal }) => {
      const z = await loadZod();
      const verdict = z.object({ score: z.number().min(0).max(1), reason: z.string() });
      const parts = [`Rubric:\n${options.rubric}`, `Input:\n${shown(c.input)}`];
      if (c.expected !== undefined) parts.push(`Reference answer:\n${shown(c.expected)}`);
      parts.push(`Answer to grade:\n${shown(output)}`);
      const result = await generateObject({
        invoker: directInvoker(options.model),
        request: { system: SYSTEM, messages: [userMessage(parts.join('\n\n'))] },
        schema: verdict,
        name: 'verdict',
        attempts: options.attempts ?? 2,
        delays: [0],
        ...(signal && { signal }),
      });
      const usage = { ...result.usage };
      const price = prices(options.model.id);
      if (price) usage.costUsd = costOf(usage, price);
      return { score: result.object.score, reason: result.object.reason, usage };
    },
  };
}
