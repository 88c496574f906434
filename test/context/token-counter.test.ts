import { describe, expect, it } from 'vitest';
import { encodingForModel, loadEncoding } from '../../src/context/encodings.js';
import {
  DEFAULT_CONTEXT_WINDOW,
  knownContextWindow,
  resolveContextWindow,
} from '../../src/context/model-table.js';
import { TokenCounter } from '../../src/context/token-counter.js';
import { estimateTokens } from '../../src/core/estimate.js';
import type { Message } from '../../src/core/messages.js';
import type { ChatModel, ToolSpec } from '../../src/model/types.js';
import { call, result, user } from './helpers.js';

describe('encodingForModel', () => {
  it('maps gpt-4o, gpt-4.1, gpt-5 and o-series models to o200k_base', () => {
    for (const m of [
      'gpt-4o',
      'openai:gpt-4o-mini',
      'gpt-4.1-nano',
      'gpt-5',
      'o1',
      'o3-mini',
      'o4-mini',
      'openai/gpt-4o',
    ])
      expect(encodingForModel(m)).toBe('o200k_base');
  });

  it('maps gpt-4 and gpt-3.5 to cl100k_base', () => {
    for (const m of ['gpt-4', 'gpt-4-turbo', 'gpt-3.5-turbo', 'openai:gpt-4-0613'])
      expect(encodingForModel(m)).toBe('cl100k_base');
  });

  it('leaves other models to the estimate', () => {
    for (const m of ['claude-sonnet-4', 'gemini-2.5-flash', 'llama3', 'ollama:qwen3', 'omni'])
      expect(encodingForModel(m)).toBeUndefined();
  });
});

describe('estimateTokens', () => {
  it('counts about four Latin characters per token', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd'.repeat(25))).toBe(25);
    expect(estimateTokens('abcde')).toBe(2);
  });

  it('counts one token per CJK character', () => {
    expect(estimateTokens('你好世界')).toBe(4);
    expect(estimateTokens('こんにちは')).toBe(5);
    expect(estimateTokens('안녕하세요 abcd')).toBe(5 + 2);
  });
});

describe('TokenCounter', () => {
  it('counts with tiktoken once the encoding has loaded', async () => {
    const counter = new TokenCounter({ model: 'gpt-4o' });
    expect(counter.exact).toBe(false);
    await counter.ready();
    expect(counter.exact).toBe(true);
    const encoder = await loadEncoding('o200k_base');
    const text = 'The quick brown fox jumps over the lazy dog, twice.';
    expect(counter.countText(text)).toBe(encoder.encode(text).length);
  });

  it('does not throw on text that contains special-token markers', async () => {
    const counter = new TokenCounter({ model: 'gpt-4' });
    await counter.ready();
    expect(counter.countText('a <|endoftext|> b')).toBeGreaterThan(3);
  });

  it('estimates until the encoding arrives, then recounts cached messages once', async () => {
    const counter = new TokenCounter({ model: 'gpt-4o' });
    const message = user('hello '.repeat(50));
    const estimated = counter.countMessage(message);
    expect(estimated).toBe(counter.messageOverhead + estimateTokens('hello '.repeat(50)));
    await counter.ready();
    const generation = counter.generation;
    const exact = counter.countMessage(message);
    expect(exact).not.toBe(estimated);
    const tokenized = counter.messagesTokenized;
    expect(counter.countMessage(message)).toBe(exact);
    expect(counter.messagesTokenized).toBe(tokenized);
    expect(counter.generation).toBe(generation);
  });

  it('estimates unknown models without loading anything', async () => {
    const counter = new TokenCounter({ model: 'claude-sonnet-4' });
    expect(counter.method).toBe('estimate');
    await counter.ready();
    expect(counter.exact).toBe(false);
    expect(counter.countText('abcd'.repeat(10))).toBe(10);
  });

  it('counts a message once, however often it is counted', () => {
    const seen: string[] = [];
    const counter = new TokenCounter({
      tokenize: (t) => {
        seen.push(t);
        return t.length;
      },
    });
    const messages: Message[] = [user('one'), user('two')];
    counter.countMessages(messages);
    counter.countMessages(messages);
    counter.countMessage(messages[0]!);
    expect(seen).toEqual(['one', 'two']);
    expect(counter.messagesTokenized).toBe(2);
  });

  it('counts every part of a message: text, tool calls, tool results, reasoning', () => {
    const counter = new TokenCounter({ tokenize: (t) => t.length, messageOverhead: 4 });
    expect(counter.countMessage(user('hello'))).toBe(4 + 5);
    expect(counter.countMessage(call('id1', 'read', '{"p":1}'))).toBe(4 + 3 + 4 + 7);
    expect(counter.countMessage(result('id1', 'contents'))).toBe(4 + 3 + 8);
    const reasoning: Message = {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'think' },
        { type: 'text', text: 'ok' },
      ],
    };
    expect(counter.countMessage(reasoning)).toBe(4 + 5 + 2);
  });

  it('counts a request with system prompt, tool schemas and messages', () => {
    const counter = new TokenCounter({ tokenize: (t) => t.length, messageOverhead: 0, requestOverhead: 3 });
    const tool: ToolSpec = { name: 'ab', description: 'cd', parameters: { type: 'object' } };
    const schemaChars = JSON.stringify(tool.parameters).length;
    const total = counter.count({ system: 'sys', tools: [tool], messages: [user('hi')] });
    expect(total).toBe(3 + 3 + (2 + 2 + schemaChars + 8) + 2);
    expect(counter.count({ system: [{ text: 'ab', cache: true }, { text: 'c' }], messages: [] })).toBe(3 + 3);
  });

  it('counts a tool schema once per ToolSpec object', () => {
    let calls = 0;
    const counter = new TokenCounter({
      tokenize: (t) => {
        calls++;
        return t.length;
      },
    });
    const tools: ToolSpec[] = [{ name: 'a', description: 'b', parameters: {} }];
    counter.countTools(tools);
    const after = calls;
    counter.countTools(tools);
    counter.count({ tools, messages: [] });
    expect(calls).toBe(after);
  });
});

describe('context window', () => {
  const model = (id: string, contextWindow?: number): ChatModel => ({
    id,
    info: contextWindow ? { contextWindow } : undefined,
    generate: async () => {
      throw new Error('unused');
    },
  });

  it('prefers the explicit option, then the adapter info, then the table, then 128k', () => {
    expect(resolveContextWindow({ contextWindow: 5000, model: model('openai:gpt-4o', 9000) })).toBe(5000);
    expect(resolveContextWindow({ model: model('openai:gpt-4o', 9000) })).toBe(9000);
    expect(resolveContextWindow({ model: model('openai:gpt-4.1-mini') })).toBe(1_047_576);
    expect(resolveContextWindow({ model: 'anthropic:claude-sonnet-4-5' })).toBe(200_000);
    expect(resolveContextWindow({ model: 'local:my-model' })).toBe(DEFAULT_CONTEXT_WINDOW);
    expect(resolveContextWindow({})).toBe(128_000);
  });

  it('matches the longest known prefix', () => {
    expect(knownContextWindow('gpt-4')).toBe(8192);
    expect(knownContextWindow('gpt-4-32k-0613')).toBe(32_768);
    expect(knownContextWindow('gpt-4o-mini')).toBe(128_000);
    expect(knownContextWindow('o1-mini')).toBe(128_000);
    expect(knownContextWindow('o1')).toBe(200_000);
  });
});
