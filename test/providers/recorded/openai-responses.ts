/** Recorded OpenAI Responses replies replayed through the Responses adapter. */
import { describe, expect, it } from 'vitest';
import type { Message, ReasoningPart } from '../../../src/core/messages.js';
import { collectStream } from '../../../src/model/stream.js';
import type { ModelRequest, ModelStreamPart } from '../../../src/model/types.js';
import { createOpenAI } from '../../../src/providers/openai/index.js';
import { createOpenAIResponsesModel } from '../../../src/providers/openai/responses.js';
import { RECORDED_FIXTURES as recorded } from '../fixture-files.js';
import { serveFixture, useFixtureServer } from '../fixture-server.js';
import { drain, failure, type StreamingModel } from '../helpers.js';

/** Registers the replays of the recorded OpenAI Responses files. */
export function recordedOpenAIResponses(): void {
  const server = useFixtureServer();

  function model(modelId: string): StreamingModel {
    return createOpenAIResponsesModel(
      {
        provider: 'openai',
        baseURL: `${server.url}/v1`,
        headers: () => ({ authorization: 'Bearer sk-test' }),
      },
      modelId,
    ) as StreamingModel;
  }

  function parts(m: StreamingModel, request: ModelRequest): Promise<ModelStreamPart[]> {
    return drain(m.stream(request));
  }

  const ask: ModelRequest = {
    system: 'You are terse.',
    messages: [{ role: 'user', content: 'What is the capital of France?' }],
  };

  describe('OpenAI Responses adapter on recorded fixtures', () => {
    it('streams a function call from openai-responses/stream-function-call.sse and sends the system prompt as instructions', async () => {
      server.handle(serveFixture('openai-responses/stream-function-call.sse', { from: recorded }));
      const got = await parts(model('gpt-4o'), ask);
      expect(got).toEqual([
        {
          type: 'tool-call-delta',
          index: 0,
          id: 'call_kL0PCQV7M2WMoVX8V8OtYSAL',
          name: 'get_capital',
          argsDelta: '',
        },
        { type: 'tool-call-delta', index: 0, argsDelta: '{"' },
        { type: 'tool-call-delta', index: 0, argsDelta: 'country' },
        { type: 'tool-call-delta', index: 0, argsDelta: '":"' },
        { type: 'tool-call-delta', index: 0, argsDelta: 'France' },
        { type: 'tool-call-delta', index: 0, argsDelta: '"}' },
        {
          type: 'tool-call',
          id: 'call_kL0PCQV7M2WMoVX8V8OtYSAL',
          name: 'get_capital',
          arguments: '{"country":"France"}',
          index: 0,
        },
        {
          type: 'finish',
          finishReason: 'tool_calls',
          usage: { inputTokens: 255, outputTokens: 16, cachedInputTokens: 0, reasoningTokens: 0 },
          responseId: 'resp_67e554a155508191900ee113293c4c830794405d35281ae2',
        },
      ]);
      const request = server.lastRequest();
      expect(request.method).toBe('POST');
      expect(request.url).toBe('/v1/responses');
      expect(request.headers.authorization).toBe('Bearer sk-test');
      expect(request.headers.accept).toBe('text/event-stream');
      expect(request.body.instructions).toBe('You are terse.');
      expect(request.body.stream).toBe(true);
      expect(request.body.input).toEqual([
        { role: 'user', content: [{ type: 'input_text', text: 'What is the capital of France?' }] },
      ]);
      expect(request.rawBody).not.toContain('"role":"system"');
      expect(request.rawBody).not.toContain('"role":"developer"');
    });

    it('keeps parallel calls apart by output_index in openai-responses/stream-parallel-function-calls.sse', async () => {
      server.handle(serveFixture('openai-responses/stream-parallel-function-calls.sse', { from: recorded }));
      const response = await collectStream(model('gpt-5').stream(ask));
      expect(response.message.content).toEqual([
        {
          type: 'reasoning',
          text: '',
          providerMetadata: { openai: { itemId: 'rs_0a7836d50cf181dd016a3c122e5e1881a1b60647835c2c9ab0' } },
        },
        { type: 'tool_call', id: 'call_inViAUr9eV0GDtyOywkCxp59', name: 'add', arguments: '{"a":2,"b":3}' },
        {
          type: 'tool_call',
          id: 'call_Op66UUnzuOoKmgGeFJQJFTUY',
          name: 'multiply',
          arguments: '{"a":2,"b":3}',
        },
      ]);
      expect(response.finishReason).toBe('tool_calls');
      expect(response.usage).toEqual({
        inputTokens: 109,
        outputTokens: 223,
        cachedInputTokens: 0,
        reasoningTokens: 128,
      });
      expect(response.responseId).toBe('resp_0a7836d50cf181dd016a3c122cf3b881a1947fb8d49897cfca');
    });

    it('captures the summary and the final encrypted content from openai-responses/stream-reasoning-summary-tool-call.sse', async () => {
      server.handle(
        serveFixture('openai-responses/stream-reasoning-summary-tool-call.sse', { from: recorded }),
      );
      const response = await collectStream(model('gpt-5').stream(ask));
      const [reasoning, call] = response.message.content as [ReasoningPart, unknown];
      expect(reasoning.type).toBe('reasoning');
      expect(reasoning.text).toBe(
        "**Getting weather info**\n\nI need to respond to the user's question about the weather in Florence, Italy. I'll use the weather tool, which requires the location string. According to the instructions, I can call functions.weather directly since I only need one tool for this task. There's no need for parallel execution here. I'll call the tool to retrieve the current weather information for Florence and see what it returns!",
      );
      expect(reasoning.providerMetadata).toEqual({
        openai: { itemId: 'rs_017e85da2ae23b69016a3c1251dcec819daf72930a854fd4d1' },
      });
      // output_item.done re-encrypts the item; that version, not the one from output_item.added, is replayed.
      expect(
        reasoning.redacted?.startsWith('gAAAAABqPBJWAIvEAmUTQCqLSmR9FPLSaCOTK3cpkKjorwAKVNzysthKw3dj'),
      ).toBe(true);
      expect(reasoning.redacted?.endsWith('YAP6tjmQE0XasRCHxQ==')).toBe(true);
      expect(reasoning.redacted).toHaveLength(1572);
      expect(call).toEqual({
        type: 'tool_call',
        id: 'call_zgUaIBRPTwxxOusyyKw5NVMH',
        name: 'weather',
        arguments: '{"location":"Florence, Italy"}',
      });
      expect(response.message.content).toHaveLength(2);
      expect(response.finishReason).toBe('tool_calls');
      expect(response.usage).toEqual({
        inputTokens: 63,
        outputTokens: 121,
        cachedInputTokens: 0,
        reasoningTokens: 64,
      });
      expect(server.lastRequest().body.include).toEqual(['reasoning.encrypted_content']);
      expect(server.lastRequest().body.store).toBe(false);
    });

    it('replays the streamed reasoning item, call and result in order on the next turn', async () => {
      server.handle(
        serveFixture('openai-responses/stream-reasoning-summary-tool-call.sse', { from: recorded }),
      );
      const m = model('gpt-5');
      const first = await collectStream(m.stream(ask));
      const messages: Message[] = [
        ...ask.messages,
        first.message,
        {
          role: 'tool',
          content: [
            {
              type: 'tool_result',
              toolCallId: 'call_zgUaIBRPTwxxOusyyKw5NVMH',
              toolName: 'weather',
              content: '18°C',
            },
          ],
        },
      ];
      server.handle(serveFixture('openai-responses/stream-function-call.sse', { from: recorded }));
      await collectStream(m.stream({ ...ask, messages }));
      const input = server.lastRequest().body.input as Array<Record<string, unknown>>;
      const reasoning = first.message.content[0] as ReasoningPart;
      expect(input.slice(1)).toEqual([
        {
          type: 'reasoning',
          id: 'rs_017e85da2ae23b69016a3c1251dcec819daf72930a854fd4d1',
          summary: [{ type: 'summary_text', text: reasoning.text }],
          encrypted_content: reasoning.redacted,
        },
        {
          type: 'function_call',
          call_id: 'call_zgUaIBRPTwxxOusyyKw5NVMH',
          name: 'weather',
          arguments: '{"location":"Florence, Italy"}',
        },
        { type: 'function_call_output', call_id: 'call_zgUaIBRPTwxxOusyyKw5NVMH', output: '18°C' },
      ]);
    });

    it('splits the four summary parts of openai-responses/stream-reasoning-summary-multipart.sse, even in 7-byte pieces', async () => {
      server.handle(
        serveFixture('openai-responses/stream-reasoning-summary-multipart.sse', {
          from: recorded,
          chunkSize: 7,
        }),
      );
      const got = await parts(model('o3-mini'), ask);
      expect(got.filter((p) => p.type === 'reasoning-delta' && p.delta !== '')).toHaveLength(383);
      expect(got.filter((p) => p.type === 'text-delta')).toHaveLength(271);
      const response = await collectStream(
        (async function* () {
          yield* got;
        })(),
      );
      const reasoning = response.message.content.filter((p): p is ReasoningPart => p.type === 'reasoning');
      expect(reasoning.map((p) => p.text.split('\n')[0])).toEqual([
        '**Providing street crossing instructions**',
        '**Explaining street crossing safety**',
        '**Sharing street crossing safety tips**',
        '**Providing safe crossing advice**',
      ]);
      expect(reasoning[0]?.text).toBe(
        "**Providing street crossing instructions**\n\nThe user is asking how to cross the street, which seems to be a request for safety instructions. I think it’s important to interpret this as a request for guidance on safe behaviors like checking for traffic and using crosswalks. So, I'll explain how to cross safely. Since this is general advice on pedestrian safety, it definitely fits within providing helpful, non-harmful guidance for safely crossing the street.",
      );
      expect(reasoning.map((p) => p.text.length)).toEqual([460, 517, 540, 505]);
      expect(reasoning.map((p) => p.redacted === undefined)).toEqual([true, true, true, false]);
      expect(reasoning[3]?.redacted?.startsWith('gAAAAABoxC0m_QWpOlSt8wyPk_gtnjiI4mNLOryYlNXO')).toBe(true);
      const text = response.message.content[4];
      expect(text?.type).toBe('text');
      const body = text?.type === 'text' ? text.text : '';
      expect(
        body.startsWith("I'm not a road safety professional, but here are some generally accepted"),
      ).toBe(true);
      expect(body.endsWith('familiarize yourself with the rules specific to your area. Stay safe!')).toBe(
        true,
      );
      expect(body).toHaveLength(1251);
      expect(response.finishReason).toBe('stop');
      expect(response.usage).toEqual({
        inputTokens: 13,
        outputTokens: 1680,
        cachedInputTokens: 0,
        reasoningTokens: 1408,
      });
    });

    it('turns the error event of openai-responses/stream-error-insufficient-quota.chunks.jsonl into a non-retryable rate_limit', async () => {
      server.handle(
        serveFixture('openai-responses/stream-error-insufficient-quota.chunks.jsonl', { from: recorded }),
      );
      const error = await failure(parts(model('gpt-5-nano'), ask));
      expect(error.kind).toBe('rate_limit');
      expect(error.retryable).toBe(false);
      expect(error.status).toBeUndefined();
      expect(error.model).toBe('openai:gpt-5-nano');
      expect(error.message).toBe(
        'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
      );
    });

    it('parses openai-responses/nonstream-reasoning-encrypted.json and replays its encrypted reasoning', async () => {
      server.handle(serveFixture('openai-responses/nonstream-reasoning-encrypted.json', { from: recorded }));
      const m = model('gpt-5-mini');
      const response = await m.generate(ask);
      const sent = server.lastRequest().body;
      expect(sent.stream).toBeUndefined();
      expect(sent.store).toBe(false);
      expect(sent.include).toEqual(['reasoning.encrypted_content']);
      expect(response.responseId).toBe('resp_0f35ed53160b395301693cc957829881909359e7f80cdd20b5');
      expect(response.finishReason).toBe('stop');
      expect(response.usage).toEqual({
        inputTokens: 865,
        outputTokens: 163,
        cachedInputTokens: 0,
        reasoningTokens: 128,
      });
      const [reasoning, text] = response.message.content as [ReasoningPart, { type: string; text: string }];
      expect(reasoning.text.startsWith('**Reporting final result**\n\nThe tool returned 570')).toBe(true);
      expect(reasoning.redacted?.startsWith('gAAAAABpPMlcH0HHEv5_ozHwP5Gxz5ZLE7A8Aw7GK94sa1KWHqXL')).toBe(
        true,
      );
      expect(reasoning.providerMetadata).toEqual({
        openai: { itemId: 'rs_0f35ed53160b395301693cc95817ac8190b978637daea4987e' },
      });
      expect(text).toEqual({
        type: 'text',
        text: '12 + 7 = 19\n19 × 3 = 57\n57 × 10 = 570\n\nFinal result: 570',
      });

      await m.generate({
        ...ask,
        messages: [...ask.messages, response.message, { role: 'user', content: 'Thanks' }],
      });
      expect(server.lastRequest().body.input).toEqual([
        { role: 'user', content: [{ type: 'input_text', text: 'What is the capital of France?' }] },
        {
          type: 'reasoning',
          id: 'rs_0f35ed53160b395301693cc95817ac8190b978637daea4987e',
          summary: [{ type: 'summary_text', text: reasoning.text }],
          encrypted_content: reasoning.redacted,
        },
        { role: 'assistant', content: [{ type: 'output_text', text: text.text }] },
        { role: 'user', content: [{ type: 'input_text', text: 'Thanks' }] },
      ]);
    });

    it('is reached through createOpenAI(...).responses with the provider name, key and settings', async () => {
      server.handle(serveFixture('openai-responses/nonstream-reasoning-encrypted.json', { from: recorded }));
      const m = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-live', name: 'azure' }).responses(
        'my-deployment',
        { reasoningModel: true, store: true, reasoningEffort: 'high' },
      );
      expect(m.id).toBe('azure:my-deployment');
      expect(m.info?.supportsReasoning).toBe(true);
      await m.generate(ask);
      const request = server.lastRequest();
      expect(request.url).toBe('/v1/responses');
      expect(request.headers.authorization).toBe('Bearer sk-live');
      expect(request.body).toMatchObject({
        model: 'my-deployment',
        store: true,
        reasoning: { effort: 'high' },
      });
      expect(request.body).not.toHaveProperty('include');
    });

    it('maps openai-responses/error-400-unsupported-temperature.json to a bad_request with the provider message', async () => {
      server.handle(
        serveFixture('openai-responses/error-400-unsupported-temperature.json', { from: recorded }),
      );
      for (const call of [() => model('gpt-4o').generate(ask), () => parts(model('gpt-4o'), ask)]) {
        const error = await failure(call());
        expect(error.kind).toBe('bad_request');
        expect(error.status).toBe(400);
        expect(error.retryable).toBe(false);
        expect(error.message).toBe("Unsupported parameter: 'temperature' is not supported with this model.");
      }
    });
  });
}
