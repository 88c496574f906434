import { describe, expect, it } from 'vitest';
import { defaultRouterPrompt, Router } from '../../src/agents/routing/index.js';
import { AbortError, ConfigError, ModelError } from '../../src/core/errors.js';
import { textOf } from '../../src/core/messages.js';
import { emptyUsage } from '../../src/core/usage.js';
import { FakeClock, flush } from '../../src/testing/fake-clock.js';
import { type ScriptEntry, ScriptedModel } from '../../src/testing/scripted-model.js';

const agents = [
  { name: 'chat', description: 'General conversation, simple Q&A' },
  { name: 'research', description: 'In-depth research, web search, reports' },
  { name: 'code', description: 'Code execution, scripts, debugging' },
];

function setup(script: ScriptEntry[], options: { attempts?: number } = {}) {
  const model = new ScriptedModel(script);
  const clock = new FakeClock();
  const router = new Router({ model, agents, defaultAgent: 'chat', runtime: { clock }, ...options });
  return { model, clock, router };
}

describe('Router.route', () => {
  it('routes with an explicit mode naming an agent without calling the model', async () => {
    const { model, router } = setup([]);
    expect(await router.route('anything', { mode: 'Research' })).toEqual({
      agent: 'research',
      confidence: 1,
      reason: 'Explicit mode selection',
      method: 'explicit',
    });
    expect(model.calls).toBe(0);
  });

  it('asks the model when the mode is not an agent; prompt in request.system, "Query: <q>" as user', async () => {
    const { model, router } = setup([
      {
        text: '```json\n{"agent": "Code", "confidence": 0.9, "reason": "wants a script"}\n```',
        usage: { inputTokens: 4 },
      },
    ]);
    const usage = emptyUsage();
    const result = await router.route('write a python script', { mode: 'image', usage });
    expect(result).toEqual({ agent: 'code', confidence: 0.9, reason: 'wants a script', method: 'llm' });
    const request = model.requests[0]!;
    expect(request.system).toBe(defaultRouterPrompt(agents));
    expect(request.system).toContain('2. research - In-depth research, web search, reports');
    expect(request.messages).toEqual([{ role: 'user', content: 'Query: write a python script' }]);
    expect(textOf(request.messages[0]!)).not.toContain('Available agents');
    expect(usage.inputTokens).toBe(4);
    expect(router.usage.inputTokens).toBe(4);
  });

  it('flags a confidence below 0.5 with a message for the user', async () => {
    const { router } = setup([{ text: '{"agent": "research", "confidence": 0.3, "reason": "unclear"}' }]);
    expect(await router.route('tell me about rust')).toEqual({
      agent: 'research',
      confidence: 0.3,
      reason: 'unclear',
      method: 'llm',
      lowConfidence: true,
      message:
        "Low confidence (30%) routing to research. If the response doesn't match your intent, try rephrasing your query.",
    });
  });

  it('assumes confidence 0.8 when none is given and scales percentages', async () => {
    const { router } = setup([
      { text: '{"agent": "chat"}' },
      { text: '{"agent": "code", "confidence": "85"}' },
    ]);
    expect(await router.route('hi there')).toMatchObject({ agent: 'chat', confidence: 0.8, method: 'llm' });
    expect(await router.route('run it')).toMatchObject({ agent: 'code', confidence: 0.85 });
  });

  it('routes an unknown agent to the default agent', async () => {
    const { router } = setup([{ text: '{"agent": "painter", "confidence": 0.95, "reason": "art"}' }]);
    expect(await router.route('draw a cat')).toMatchObject({
      agent: 'chat',
      confidence: 0,
      method: 'default',
      reason: 'Default (unknown agent "painter"): art',
      lowConfidence: true,
    });
  });

  it('routes a failed model call to the default agent with confidence 0', async () => {
    const { model, router } = setup([{ error: new ModelError('server', 'upstream 500') }]);
    const result = await router.route('hello');
    expect(result).toMatchObject({ agent: 'chat', confidence: 0, method: 'default' });
    expect(result.reason).toContain('routing error');
    expect(result.reason).toContain('upstream 500');
    expect(model.calls).toBe(1);
  });

  it('reads the legacy "AGENT: x | REASON: y" text format', async () => {
    const { router } = setup([{ text: 'AGENT: CODE | REASON: needs execution' }]);
    expect(await router.route('run my tests')).toMatchObject({
      agent: 'code',
      reason: 'needs execution',
      confidence: 0.8,
      method: 'llm',
    });
  });

  it('routes prose without JSON or an agent to the default agent', async () => {
    const { router } = setup([{ text: 'I am not sure what you want.' }]);
    expect(await router.route('hmm')).toMatchObject({ agent: 'chat', confidence: 0, method: 'default' });
  });

  it('re-asks an invalid reply when attempts allow it', async () => {
    const { model, clock, router } = setup([{ text: 'dunno' }, { text: '{"agent": "research"}' }], {
      attempts: 2,
    });
    const pending = router.route('compare databases');
    await clock.advance(2500);
    expect(await pending).toMatchObject({ agent: 'research', method: 'llm' });
    expect(model.calls).toBe(2);
  });

  it('propagates an abort instead of routing to the default', async () => {
    const { router } = setup([{ hang: true }]);
    const controller = new AbortController();
    const pending = router.route('hello', { signal: controller.signal });
    await flush();
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(AbortError);
  });

  it('rejects a default agent that is not registered', () => {
    expect(() => new Router({ model: new ScriptedModel([]), agents, defaultAgent: 'nope' })).toThrow(
      ConfigError,
    );
  });
});
