import { context, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ChatModel,
  defineTool,
  Executor,
  ModelError,
  type ModelRequest,
  type ModelResponse,
  Orchestrator,
} from '../../src/index.js';
import { otelTracing } from '../../src/otel/index.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { decideComplex, planJson } from '../orchestrator/helpers.js';
import { memoryTracer, parentOf, span } from './helpers.js';

const manager = new AsyncLocalStorageContextManager();
beforeAll(() => {
  context.setGlobalContextManager(manager.enable());
});
afterAll(() => {
  context.disable();
});

/** A tool that starts a span of its own, as user code or an instrumented client inside it would. */
const lookupTool = (tracer: Tracer) =>
  defineTool({
    name: 'lookup',
    description: 'Look up a value',
    parameters: z.object({ key: z.string() }),
    execute: async ({ key }) => {
      await Promise.resolve();
      return tracer.startActiveSpan('user.db_query', async (s) => {
        await Promise.resolve();
        s.end();
        return `value of ${key}`;
      });
    },
  });

/** A model whose "fetch" starts a span, as an auto-instrumented HTTP client would. */
function fetchingModel(inner: ChatModel, tracer: Tracer): ChatModel {
  return {
    id: inner.id,
    async generate(request: ModelRequest): Promise<ModelResponse> {
      return tracer.startActiveSpan('HTTP POST', async (s) => {
        try {
          return await inner.generate(request);
        } finally {
          s.end();
        }
      });
    },
  };
}

const names = (spans: readonly ReadableSpan[], prefix: string) =>
  spans.filter((s) => s.name.startsWith(prefix)).map((s) => s.name);

describe('otelTracing: spans around model calls and tools, with context propagation', () => {
  it('an orchestrated run nests model calls and tools under their steps, and user spans under those', async () => {
    const { tracer, spans } = memoryTracer();
    const runtime = { ...testRuntime(), tracing: otelTracing({ tracer, agentName: 'assistant' }) };
    const executor = new ScriptedModel(
      [
        { toolCalls: [{ name: 'lookup', args: { key: 'a' } }], usage: { inputTokens: 7, outputTokens: 3 } },
        { text: 'a is known', usage: { inputTokens: 9, outputTokens: 2 } },
        { text: 'b done' },
      ],
      { id: 'openai:gpt-4o', stream: false },
    );
    const planner = new ScriptedModel([decideComplex, { text: planJson([{ id: 's1' }, { id: 's2' }]) }], {
      id: 'anthropic:claude',
    });
    const verifier = new ScriptedModel([{ text: 'PASS' }], { id: 'gemini:gemini-2.5-flash' });
    const finalizer = new ScriptedModel([{ text: 'Done.' }]);
    const orchestrator = new Orchestrator({
      models: { planner, executor: fetchingModel(executor, tracer), verifier, finalizer },
      tools: [lookupTool(tracer)],
      planning: { classify: 'llm' },
      runtime,
      modelSettings: { temperature: 0.2 },
    });
    await orchestrator.run('Find a').result;
    const all = spans();

    const root = span(all, 'invoke_agent assistant');
    expect(root.attributes['gen_ai.operation.name']).toBe('invoke_agent');

    const chats = all.filter((s) => s.name.startsWith('chat '));
    expect(chats).toHaveLength(planner.calls + executor.calls + verifier.calls + finalizer.calls);
    for (const chat of chats) expect(chat.kind).toBe(SpanKind.CLIENT);

    const step = span(all, 'tandem.plan_step s1');
    const executorChats = chats.filter((s) => s.name === 'chat gpt-4o');
    expect(executorChats).toHaveLength(3);
    expect(verifier.calls).toBe(1);
    for (const chat of executorChats.slice(0, 2)) expect(parentOf(all, chat)).toBe(step);
    expect(executorChats[0]!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.response.model': 'gpt-4o',
      'gen_ai.request.temperature': 0.2,
      'gen_ai.response.finish_reasons': ['tool_calls'],
      'gen_ai.usage.input_tokens': 7,
      'gen_ai.usage.output_tokens': 3,
      'gen_ai.agent.name': 'executor',
    });
    const planning = all.filter((s) => s.name === 'chat claude');
    expect(planning[0]!.attributes['gen_ai.provider.name']).toBe('anthropic');
    expect(span(all, 'chat gemini-2.5-flash').attributes['gen_ai.provider.name']).toBe('gcp.gemini');

    // The adapter's "fetch" runs inside its chat span.
    const http = all.filter((s) => s.name === 'HTTP POST');
    expect(http).toHaveLength(3);
    for (const request of http) expect(executorChats).toContain(parentOf(all, request));

    // A span the tool starts lands under execute_tool, which is under the step.
    const tool = span(all, 'execute_tool lookup');
    expect(parentOf(all, tool)).toBe(step);
    expect(parentOf(all, span(all, 'user.db_query'))).toBe(tool);

    // The planning call is under the planning stage; content is not captured by default.
    expect(parentOf(all, planning[1]!)?.name).toBe('tandem.stage planning');
    for (const chat of chats) expect(chat.attributes['gen_ai.input.messages']).toBeUndefined();
    expect(names(all, 'invoke_agent')).toHaveLength(1);
  });

  it('each retry is its own span, the failed one marked with error.type', async () => {
    const { tracer, spans } = memoryTracer();
    const runtime = { ...testRuntime(), tracing: otelTracing({ tracer }) };
    const model = new ScriptedModel(
      [{ error: new ModelError('rate_limit', 'slow down', { retryable: true }) }, { text: 'ok' }],
      { id: 'openai:gpt-4o-mini', stream: false },
    );
    const { createResilientInvoker } = await import('../../src/index.js');
    const invoker = createResilientInvoker({ models: [model], runtime });
    const executor = new Executor({ model, resilience: { invoker: () => invoker }, runtime });
    const run = executor.run('hi');
    await runtime.clock.advance(120_000);
    await run.result;
    const chats = spans().filter((s) => s.name === 'chat gpt-4o-mini');
    expect(chats.map((s) => s.attributes['tandem.attempt'])).toEqual([1, 2]);
    expect(chats[0]!.status.code).toBe(SpanStatusCode.ERROR);
    expect(chats[0]!.attributes['error.type']).toBe('rate_limit');
    expect(chats[1]!.status.code).toBe(SpanStatusCode.OK);
  });

  it('captures prompts and completions only when asked', async () => {
    const { tracer, spans } = memoryTracer();
    const runtime = { ...testRuntime(), tracing: otelTracing({ tracer, captureContent: true }) };
    const model = new ScriptedModel([{ text: 'the answer' }], { id: 'openai:gpt-4o' });
    await new Executor({ model, runtime }).run('the question').result;
    const chat = span(spans(), 'chat gpt-4o');
    expect(chat.attributes['gen_ai.input.messages']).toContain('the question');
    expect(chat.attributes['gen_ai.output.messages']).toContain('the answer');
  });

  it('without tracing, runs make no spans and the bus offers no span hook', async () => {
    const { spans } = memoryTracer();
    const model = new ScriptedModel([{ text: 'x' }]);
    const run = new Executor({ model, runtime: testRuntime() }).run('q');
    await run.result;
    expect(spans()).toHaveLength(0);
  });
});
