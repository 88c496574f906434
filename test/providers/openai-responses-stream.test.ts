import { describe, expect, it } from 'vitest';
import { collectStream } from '../../src/model/stream.js';
import type { ModelRequest, ModelStreamPart } from '../../src/model/types.js';
import { createOpenAIResponsesModel } from '../../src/providers/openai/responses.js';
import { OWN_FIXTURES } from './fixture-files.js';
import { resetAfter, respond, respondSSE, serveFixture, stall, useFixtureServer } from './fixture-server.js';
import { drain, failure, type StreamingModel } from './helpers.js';

const FUNCTION_CALL = 'openai-responses/stream-function-call.sse';
const ask: ModelRequest = { messages: [{ role: 'user', content: 'Capital of France?' }] };

const server = useFixtureServer();

function model(): StreamingModel {
  return createOpenAIResponsesModel(
    { provider: 'openai', baseURL: server.url, headers: () => ({}) },
    'gpt-4o',
  ) as StreamingModel;
}

function sse(events: unknown[]): string {
  return events.map((e) => `event: ${(e as { type: string }).type}\ndata: ${JSON.stringify(e)}\n\n`).join('');
}

/** The events of the function-call stream with the completed response replaced. */
function withCompleted(change: (response: Record<string, unknown>) => void, type = 'response.completed') {
  const events = OWN_FIXTURES.events(FUNCTION_CALL);
  const last = structuredClone(events.at(-1)) as { type: string; response: Record<string, unknown> };
  last.type = type;
  change(last.response);
  return [...events.slice(0, -1), last];
}

describe('OpenAI Responses stream edge cases', () => {
  it('reports response.incomplete for max_output_tokens as a length finish', async () => {
    server.handle(serveFixture('openai-responses/stream-incomplete-max-output-tokens.sse'));
    const response = await collectStream(model().stream(ask));
    expect(response.message.content).toEqual([{ type: 'text', text: 'Chapter one:' }]);
    expect(response.finishReason).toBe('length');
    expect(response.usage).toMatchObject({ inputTokens: 11, outputTokens: 3 });
  });

  it('reports a content_filter cut-off as a content_filter finish', async () => {
    const events = withCompleted((r) => {
      r.status = 'incomplete';
      r.incomplete_details = { reason: 'content_filter' };
    }, 'response.incomplete');
    server.handle(respondSSE(sse(events)));
    const finish = (await drain(model().stream(ask))).at(-1);
    expect(finish).toMatchObject({ type: 'finish', finishReason: 'content_filter' });
  });

  it('reads cached input tokens from input_tokens_details', async () => {
    const events = withCompleted((r) => {
      r.usage = { input_tokens: 2000, input_tokens_details: { cached_tokens: 1536 }, output_tokens: 5 };
    });
    server.handle(respondSSE(sse(events)));
    const finish = (await drain(model().stream(ask))).at(-1);
    expect(finish).toMatchObject({
      usage: { inputTokens: 2000, cachedInputTokens: 1536, outputTokens: 5, reasoningTokens: 0 },
    });
  });

  it('throws the error of a response.failed event with its code deciding the kind', async () => {
    server.handle(serveFixture('openai-responses/stream-failed-server-error.sse'));
    const seen: ModelStreamPart[] = [];
    const error = await failure(drain(model().stream(ask), seen));
    expect(error.kind).toBe('server');
    expect(error.retryable).toBe(true);
    expect(error.message).toBe('The server had an error processing your request. Sorry about that!');
    expect(seen.map((p) => (p.type === 'text-delta' ? p.delta : p.type))).toEqual(['Once', ' upon']);
  });

  it('recognises a context-length error event and reads the limit it names', async () => {
    const events = [
      ...OWN_FIXTURES.events(FUNCTION_CALL).slice(0, 2),
      {
        type: 'error',
        code: 'context_length_exceeded',
        message:
          "This model's maximum context length is 128000 tokens. However, you requested 130000 tokens.",
      },
    ];
    server.handle(respondSSE(sse(events)));
    const error = await failure(drain(model().stream(ask)));
    expect(error.kind).toBe('context_length');
    expect(error.contextLimit).toBe(128000);
  });

  it('fails with invalid_response when the stream ends before the response completes', async () => {
    server.handle(respondSSE(sse(OWN_FIXTURES.events(FUNCTION_CALL).slice(0, -1))));
    const error = await failure(drain(model().stream(ask)));
    expect(error.kind).toBe('invalid_response');
  });

  it('fails with invalid_response on a malformed event payload', async () => {
    server.handle(respondSSE('event: response.output_text.delta\ndata: {"type":"response.output_te\n\n'));
    const error = await failure(drain(model().stream(ask)));
    expect(error.kind).toBe('invalid_response');
  });

  it('fails with connection when the socket drops mid-stream', async () => {
    server.handle(resetAfter(OWN_FIXTURES.body(FUNCTION_CALL), 2000));
    const error = await failure(drain(model().stream(ask)));
    expect(error.kind).toBe('connection');
    expect(error.retryable).toBe(true);
  });

  it('stops with an aborted error when the signal aborts mid-stream', async () => {
    const body = OWN_FIXTURES.body(FUNCTION_CALL);
    const cut = body.indexOf('event: response.function_call_arguments.done');
    server.handle(stall(body.slice(0, cut)));
    const controller = new AbortController();
    const seen: ModelStreamPart[] = [];
    const error = await failure(
      (async () => {
        for await (const part of model().stream(ask, { signal: controller.signal })) {
          seen.push(part);
          if (seen.length === 6) controller.abort();
        }
      })(),
    );
    expect(error.kind).toBe('aborted');
    expect(error.retryable).toBe(false);
    expect(seen).toHaveLength(6);
  });

  it('fails generate with invalid_response when the body is not JSON', async () => {
    server.handle(respond(200, '<html>gateway</html>'));
    const error = await failure(model().generate(ask));
    expect(error.kind).toBe('invalid_response');
  });

  it('fails generate with invalid_response when the body has no output array', async () => {
    server.handle(respond(200, { id: 'resp_1', status: 'completed' }));
    const error = await failure(model().generate(ask));
    expect(error.kind).toBe('invalid_response');
  });
});
