import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { validHits } from '../../src/skills/research/sources.js';

/** The zod schema `validHits` replaced: it must keep exactly the hits this kept. */
const hitSchema = z.object({
  title: z.string().default(''),
  url: z.string().trim().min(1),
  snippet: z.string().default(''),
});

function byZod(value: unknown) {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const parsed = hitSchema.safeParse(item);
    return parsed.success ? [{ ...parsed.data, title: parsed.data.title || parsed.data.url }] : [];
  });
}

describe('validHits keeps what the zod schema kept', () => {
  it.each([
    ['well-formed hits', [{ title: 'T', url: 'https://a.example', snippet: 'S', extra: 1 }]],
    ['missing titles and snippets', [{ url: ' https://a.example/x ' }, { title: '', url: 'u' }]],
    ['blank and missing URLs', [{ title: 'T', url: '   ' }, { title: 'T' }, { url: 5 }]],
    ['wrong types', [{ url: 'u', title: 7 }, { url: 'u', snippet: null }, 'u', null, ['u']]],
    ['explicit undefined', [{ url: 'u', title: undefined, snippet: undefined }]],
    ['not an array', { url: 'u' }],
  ])('%s', (_, value) => {
    expect(validHits(value)).toEqual(byZod(value));
  });
});
