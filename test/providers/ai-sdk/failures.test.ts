/**
 * Failures of the real provider package of each AI SDK major (spec v2, v3,
 * v4) behind `fromAISDK`: error statuses become typed ModelErrors the
 * Executor retries, aborts stop calls and streams, cut-off streams fail.
 */
import { describe, expect, it } from 'vitest';
import { Executor } from '../../../src/agents/index.js';
import { createResilientInvoker } from '../../../src/model/resilience/resilient-invoker.js';
import type { ModelRequest, ModelStreamPart } from '../../../src/model/types.js';
import { testRuntime } from '../../../src/testing/index.js';
import { add, runCollect } from '../../support/executor-fixtures.js';
import { resetAfter, respond, respondSSE, stall, useFixtureServer } from '../fixture-server.js';
import { drain, failure } from '../helpers.js';
import { callDelta, chunks, deltaFrames, MAJORS, type Major, realModel } from './real-providers.js';

const server = useFixtureServer();
const ASK: ModelRequest = { messages: [{ role: 'user', content: 'Hi' }] };
const RATE_LIMITED = respond(
  429,
  { error: { message: 'Rate limit reached', code: 'rate_limit_exceeded' } },
  {
    'retry-after': '2',
  },
);

// The server records a request once its body has arrived; let the event loop turn until then.
async function requestArrived(): Promise<void> {
  while (server.requests.length === 0) await new Promise<void>((r) => setImmediate(r));
}

describe.each(MAJORS)(
  'fromAISDK over @ai-sdk/openai-compatible failing, spec $spec (ai $ai)',
  (major: Major) => {
    const model = () => realModel(major, server.url);

    it('maps a 429 with retry-after to a retryable rate_limit with the wait asked for', async () => {
      server.handle(RATE_LIMITED);
      const error = await failure(model().generate(ASK));
      expect(error.kind).toBe('rate_limit');
      expect(error.status).toBe(429);
      expect(error.retryAfterMs).toBe(2000);
      expect(error.retryable).toBe(true);
      expect(error.model).toBe('aisdk:compat.chat:gpt-test');
    });

    it('is retried by the Executor after the wait, and the run completes a parallel tool round trip', async () => {
      server.handle(
        RATE_LIMITED,
        respondSSE(
          chunks(
            [
              callDelta(0, '{"a":2,"b":3}', { id: 'call_1', name: 'add' }),
              callDelta(1, '{"a":4,"b":5}', { id: 'call_2', name: 'add' }),
            ],
            'tool_calls',
          ),
        ),
        respondSSE(chunks([{ content: '5 and 9.' }])),
      );
      const runtime = testRuntime();
      const tandem = model();
      const invoker = createResilientInvoker({ models: [tandem], runtime });
      const executor = new Executor({
        model: tandem,
        resilience: { invoker: () => invoker },
        tools: [add],
        runtime,
      });
      const { result, events } = await runCollect(executor, 'Add 2+3 and 4+5', undefined, (run) => {
        // The retry waits on the fake clock: move it by the wait the provider asked for.
        run.on('retry', (event) => {
          void runtime.clock.advance(event.delayMs);
        });
      });
      expect(result?.output).toBe('5 and 9.');
      expect(result?.toolCalls).toBe(2);
      const retry = events.find((e) => e.type === 'retry');
      expect(retry).toMatchObject({ delayMs: 2000, error: { kind: 'rate_limit' } });
      expect(server.requests).toHaveLength(3);
      expect(server.requests[2]?.body.messages.slice(-2)).toEqual([
        { role: 'tool', tool_call_id: 'call_1', content: '5' },
        { role: 'tool', tool_call_id: 'call_2', content: '9' },
      ]);
    });

    it('maps a 500 to a retryable server error', async () => {
      server.handle(respond(500, { error: { message: 'boom' } }));
      const error = await failure(model().generate(ASK));
      expect([error.kind, error.status, error.retryable]).toEqual(['server', 500, true]);
    });

    it('aborts a call waiting for its response', async () => {
      server.handle(stall());
      const controller = new AbortController();
      const pending = failure(model().generate(ASK, { signal: controller.signal }));
      await requestArrived();
      controller.abort();
      const error = await pending;
      expect(error.kind).toBe('aborted');
      expect(error.retryable).toBe(false);
    });

    it('aborts a stream after its first part', async () => {
      server.handle(stall(deltaFrames([{ content: 'Hel' }])));
      const controller = new AbortController();
      const parts: ModelStreamPart[] = [];
      const error = await failure(
        (async () => {
          for await (const part of model().stream(ASK, { signal: controller.signal })) {
            parts.push(part);
            if (part.type === 'text-delta') controller.abort();
          }
        })(),
      );
      expect(parts.filter((p) => p.type === 'text-delta').map((p) => p.delta)).toEqual(['Hel']);
      expect(error.kind).toBe('aborted');
    });

    it('fails a stream cut off before its finish with a retryable ModelError', async () => {
      const body = chunks([{ content: 'Hello, wor' }, { content: 'ld.' }]);
      server.handle(resetAfter(body, body.indexOf('ld.')));
      const seen: ModelStreamPart[] = [];
      const error = await failure(drain(model().stream(ASK), seen));
      expect(seen.filter((p) => p.type === 'text-delta').map((p) => p.delta)).toEqual(['Hello, wor']);
      expect(error.retryable).toBe(true);
      expect(error.kind).toBe('connection');
    });
  },
);
