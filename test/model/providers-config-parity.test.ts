/**
 * The providers config is read by hand (importing zod at start-up cost more
 * than the read): it must accept, normalise and refuse exactly what the zod
 * schema it replaced did, with the same first problem.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { parseProvidersConfig } from '../../src/model/resilience/tiers.js';

const SNAKE: Record<string, string> = {
  base_url: 'baseURL',
  api_key: 'apiKey',
  api_key_env: 'apiKeyEnv',
  tier_models: 'tierModels',
  enable_thinking: 'thinking',
};
const camel = (v: unknown) =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v).map(([k, x]) => [SNAKE[k] ?? k, x]))
    : v;
const zodConfig = z
  .array(
    z.preprocess(
      camel,
      z
        .object({
          name: z.string().min(1),
          type: z.string().min(1).default('openai'),
          baseURL: z.url().optional(),
          apiKey: z.string().min(1).optional(),
          apiKeyEnv: z.string().min(1).optional(),
          tierModels: z
            .object({ max: z.string().min(1), pro: z.string().min(1), flash: z.string().min(1) })
            .partial()
            .strict()
            .refine((tiers) => Object.keys(tiers).length > 0, 'names no tier model'),
          thinking: z.boolean().optional(),
        })
        .strict(),
    ),
  )
  .min(1);

/** What the zod schema made of `input`: the providers, or the message of its first problem. */
function byZod(input: unknown): unknown {
  const parsed = zodConfig.safeParse(Array.isArray(input) ? input : [input]);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  return `providers config: ${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`;
}

function byHand(input: unknown): unknown {
  try {
    return parseProvidersConfig(input);
  } catch (error) {
    return (error as Error).message;
  }
}

const ok = { name: 'x', tier_models: { max: 'm' } };
const cases: [string, unknown][] = [
  [
    'the seed config',
    { name: 'q', api_key: 'k', base_url: 'https://a.example/v1', tier_models: { pro: 'p' } },
  ],
  [
    'camelCase keys and a type',
    { name: 'q', type: 'anthropic', apiKeyEnv: 'KEY', tierModels: { flash: 'f' } },
  ],
  ['a URL with spaces and a tab', { ...ok, base_url: '  https://a.example/\tv1 ' }],
  ['thinking', { ...ok, enable_thinking: false }],
  ['several providers', [ok, { name: 'y', tier_models: { pro: 'p', flash: 'f' } }]],
  ['no name', { tier_models: { max: 'm' } }],
  ['an empty name', { ...ok, name: '' }],
  ['a numeric name', { ...ok, name: 5 }],
  ['an empty type', { ...ok, type: '' }],
  ['a bad URL', { ...ok, base_url: 'not a url' }],
  ['a URL that is not a string', { ...ok, base_url: 42 }],
  ['an empty API key', { ...ok, api_key: '' }],
  ['no tier models', { name: 'x' }],
  ['tier models that are a string', { name: 'x', tier_models: 'm' }],
  ['an unknown tier', { name: 'x', tier_models: { ultra: 'm' } }],
  ['an empty tier model', { name: 'x', tier_models: { max: '' } }],
  ['no tier model', { name: 'x', tier_models: {} }],
  ['thinking that is a string', { ...ok, thinking: 'yes' }],
  ['an unknown key', { ...ok, colour: 'red' }],
  ['an unknown key and a bad name', { name: 5, colour: 'red' }],
  ['a provider that is a string', ['qwen']],
  ['a provider that is null', [null]],
  ['a provider that is an array', [[ok]]],
  ['an empty list', []],
  ['a bad second provider', [ok, { name: 'y' }]],
];

describe('parseProvidersConfig reads what the zod schema read', () => {
  it.each(cases)('%s', (_, input) => {
    expect(byHand(input)).toEqual(byZod(input));
  });
});
