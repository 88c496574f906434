/**
 * A 400 that names no cause (`Error`, an empty body) is retried once, and on
 * a long conversation is taken as a context overflow (seed §1 items 55, 58);
 * Kimi's "exceeded model token limit: N" names the window. Through the real
 * OpenAI-compatible adapter, its `fetch` replaced by a script.
 */
import { describe, expect, it } from 'vitest';
import {
  type CompressHook,
  ConfigError,
  createResilientInvoker,
  EventBus,
  type Message,
  type ModelRequest,
  type ResilientInvokerOptions,
  type TandemEvent,
  userMessage,
} from '../../src/index.js';
import { createOpenAI } from '../../src/providers/openai/index.js';
import { FakeClock } from '../../src/testing/index.js';

type Reply = { status: number; body: unknown };

const bare: Reply = { status: 400, body: { error: { message: 'Error', type: 'invalid_request_error' } } };
const ok: Reply = {
  status: 200,
  body: {
    id: 'c1',
    choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  },
};

function conversation(messages: number): ModelRequest {
  const list: Message[] = [];
  for (let i = 0; i < messages; i++) list.push(userMessage(`turn ${i}`));
  return { messages: list };
}

interface SetupOptions extends Partial<Omit<ResilientInvokerOptions, 'models'>> {
  models?: string[];
  contextWindow?: number;
}

function setup(script: Reply[], options: SetupOptions = {}) {
  const sent: Array<{ model: string; messages: unknown[] }> = [];
  const fetch = (async (_url: string, init: RequestInit) => {
    sent.push(JSON.parse(String(init.body)));
    const reply = script.shift() ?? bare;
    return new Response(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof globalThis.fetch;
  const provider = createOpenAI({ baseURL: 'http://kimi.test/v1', apiKey: 'k', fetch });
  const models = (options.models ?? ['m']).map((name) => {
    const model = provider(name);
    return options.contextWindow
      ? Object.assign(model, { info: { contextWindow: options.contextWindow } })
      : model;
  });
  const clock = new FakeClock();
  const bus = new EventBus({ runId: 'r', clock });
  const events: TandemEvent[] = [];
  bus.on('*', (event) => events.push(event));
  const invoker = createResilientInvoker({
    ...options,
    models,
    runtime: { clock, random: { next: () => 0 } },
  });
  const hooks: Array<Parameters<CompressHook>[1]> = [];
  const compress: CompressHook = async (request, info) => {
    hooks.push(info);
    return { ...request, messages: request.messages.slice(-2) };
  };
  const run = (request: ModelRequest, withCompress = true) =>
    clock.run(
      invoker.invoke(request, { emit: bus, stream: false, compress: withCompress ? compress : undefined }),
    );
  const ofType = (type: string) => events.filter((e) => e.type === type) as any[];
  return { sent, hooks, run, ofType };
}

describe('a bare 400', () => {
  it('is retried once, then succeeds', async () => {
    const { sent, run, ofType } = setup([bare, ok]);
    const response = await run(conversation(3));
    expect(response.message.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(sent).toHaveLength(2);
    expect(ofType('retry').map((e) => e.error.kind)).toEqual(['bad_request']);
  });

  it('is retried only once: the second one is thrown', async () => {
    const { sent, run } = setup([bare, bare, ok]);
    const error = await run(conversation(3)).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'bad_request', status: 400, message: 'Error' });
    expect(sent).toHaveLength(2);
  });

  it('moves to the next model after its one retry', async () => {
    const { sent, run, ofType } = setup([bare, bare, ok], { models: ['primary', 'backup'] });
    await run(conversation(3));
    expect(sent.map((s) => s.model)).toEqual(['primary', 'primary', 'backup']);
    expect(ofType('fallback')).toHaveLength(1);
  });

  it('counts an empty body as bare', async () => {
    const { sent, run } = setup([{ status: 400, body: '' }, ok]);
    await run(conversation(3));
    expect(sent).toHaveLength(2);
  });

  it('leaves a 400 that names its cause unretried', async () => {
    const unsupported = { status: 400, body: { error: { message: "Unsupported parameter: 'temperature'" } } };
    const { sent, run } = setup([unsupported, ok]);
    await expect(run(conversation(3))).rejects.toMatchObject({ kind: 'bad_request' });
    expect(sent).toHaveLength(1);
  });
});

describe('a bare 400 on a long conversation', () => {
  it('is a context overflow above 80 messages: compressed and sent again, no backoff retry', async () => {
    const { sent, hooks, run, ofType } = setup([bare, ok]);
    await run(conversation(81));
    expect(hooks).toEqual([{ reason: 'context_length', contextLimit: 64_000 }]);
    expect(sent.map((s) => s.messages.length)).toEqual([81, 2]);
    expect(ofType('retry')).toHaveLength(0);
  });

  it('is a plain bare 400 at 80 messages', async () => {
    const { sent, hooks, run } = setup([bare, ok]);
    await run(conversation(80));
    expect(hooks).toEqual([]);
    expect(sent.map((s) => s.messages.length)).toEqual([80, 80]);
  });

  it('is a context overflow when the request is estimated above 40 % of the window', async () => {
    const { hooks, run } = setup([bare, ok], { contextWindow: 8_000 });
    // 13 600 characters ≈ 3 400 tokens (characters / 4), above 0.4 · 8 000 = 3 200; only 2 messages.
    await run({ messages: [userMessage('x'.repeat(6_800)), userMessage('y'.repeat(6_800))] });
    expect(hooks).toEqual([{ reason: 'context_length', contextLimit: 8_000 }]);
  });

  it('without a compression seam, is thrown as a context-length error naming the guess', async () => {
    const { sent, run } = setup([bare, ok]);
    const error = await run(conversation(81), false).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'context_length', status: 400 });
    expect((error as Error).message).toContain('81 messages, taken as a context overflow');
    expect(sent).toHaveLength(1);
  });
});

describe('bare-400 options', () => {
  it('retry.maxBare400Retries: 0 turns the retry off', async () => {
    const { sent, run } = setup([bare, ok], { retry: { maxBare400Retries: 0 } });
    await expect(run(conversation(3))).rejects.toMatchObject({ kind: 'bad_request' });
    expect(sent).toHaveLength(1);
  });

  it('contextRecovery.overflowMessages sets the long-conversation threshold', async () => {
    const { hooks, run } = setup([bare, ok], { contextRecovery: { overflowMessages: 5 } });
    await run(conversation(6));
    expect(hooks).toHaveLength(1);
  });

  it('rejects nonsense values with a ConfigError', () => {
    expect(() => setup([], { retry: { maxBare400Retries: -1 } })).toThrow(ConfigError);
    expect(() => setup([], { contextRecovery: { overflowMessages: 1.5 } })).toThrow(ConfigError);
    expect(() => setup([], { contextRecovery: { overflowWindowShare: 0 } })).toThrow(ConfigError);
  });
});

describe('Kimi / Moonshot context-length wording', () => {
  it('"exceeded model token limit: 8192 (requested: 9310)" names the window 8192', async () => {
    const kimi = {
      status: 400,
      body: {
        error: {
          message: 'Invalid request: Your request exceeded model token limit: 8192 (requested: 9310)',
          type: 'invalid_request_error',
        },
      },
    };
    const { hooks, run } = setup([kimi, ok]);
    await run(conversation(3));
    expect(hooks).toEqual([{ reason: 'context_length', contextLimit: 8192 }]);
  });
});
