import { describe, expect, it } from 'vitest';
import { ModelError } from '../../src/index.js';
import { createOpenAI } from '../../src/providers/openai/index.js';

describe('a baseURL with credentials', () => {
  it('fails with a bad_request that names the cause and never repeats the password', async () => {
    const openai = createOpenAI({ baseURL: 'http://alice:s3cret-pass@127.0.0.1:9/v1', apiKey: 'k' });
    const error = await openai('m')
      .generate({ messages: [{ role: 'user', content: 'hi' }] })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).kind).toBe('bad_request');
    expect((error as ModelError).message).toContain('baseURL includes a user name or password');
    expect((error as ModelError).message).not.toContain('s3cret-pass');
    expect((error as ModelError).cause).toBeUndefined();
  });
});
