/** Recorded Gemini and Vertex replies replayed through the Gemini adapter. */
import { describe, expect, it } from 'vitest';
import { ModelError } from '../../../src/core/errors.js';
import type { ModelRequest } from '../../../src/model/types.js';
import { createGemini } from '../../../src/providers/gemini/index.js';
import { RECORDED_FIXTURES as recorded } from '../fixture-files.js';
import { serveFixture, useFixtureServer } from '../fixture-server.js';
import { fixtureReplies, type StreamingModel } from '../helpers.js';

/** Registers the replays of the recorded Gemini and Vertex files. */
export function recordedGemini(): void {
  const server = useFixtureServer();

  function gemini(modelId = 'gemini-2.5-flash'): StreamingModel {
    return createGemini({ apiKey: 'gm-test', baseURL: `${server.url}/v1beta` })(modelId) as StreamingModel;
  }

  const ask: ModelRequest = {
    system: 'You are a careful assistant.',
    messages: [{ role: 'user', content: 'Hello' }],
  };

  const { streamed, generated } = fixtureReplies(server, gemini, ask, recorded);

  // Independent oracle: the thoughtSignature of the n-th part carrying one, straight from the fixture.
  function signatureIn(file: string, nth = 0): string {
    const parts = file.endsWith('.json')
      ? recorded.json(file).candidates[0].content.parts
      : recorded.events(file).flatMap((e) => e.candidates?.[0]?.content?.parts ?? []);
    return parts.filter((p: { thoughtSignature?: string }) => p.thoughtSignature)[nth].thoughtSignature;
  }

  const usage = (inputTokens: number, outputTokens: number, reasoningTokens: number) => ({
    inputTokens,
    outputTokens,
    cachedInputTokens: 0,
    reasoningTokens,
  });

  describe('Gemini adapter: generateContent fixtures', () => {
    it('reads a function call with its thoughtSignature and a generated id (gemini/generate-content-function-call.json)', async () => {
      const file = 'gemini/generate-content-function-call.json';
      const response = await generated(file);
      expect(response).toEqual({
        message: {
          role: 'assistant',
          content: [
            {
              type: 'tool_call',
              id: 'weather_0_m36LaZGyCLz1xs0PtNSB-QU',
              name: 'weather',
              arguments: '{"location":"San Francisco"}',
              providerMetadata: { gemini: { thoughtSignature: signatureIn(file) } },
            },
          ],
        },
        finishReason: 'tool_calls',
        usage: usage(29, 15 + 893, 893),
        responseId: 'm36LaZGyCLz1xs0PtNSB-QU',
      });
      expect(signatureIn(file)).toMatch(/^EskgCsYgAb4\+9vtF7.*ahEt5$/);
      expect(server.lastRequest().url).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    });

    it('reads two parallel calls; only the first carries a signature (gemini/generate-content-parallel-function-calls.json)', async () => {
      const file = 'gemini/generate-content-parallel-function-calls.json';
      const response = await generated(file);
      expect(response.message.content).toEqual([
        {
          type: 'tool_call',
          id: 'add_0_WwCzadOqH-mtz7IP8_Se8Ak',
          name: 'add',
          arguments: '{"a":2,"b":3}',
          providerMetadata: { gemini: { thoughtSignature: signatureIn(file) } },
        },
        {
          type: 'tool_call',
          id: 'multiply_1_WwCzadOqH-mtz7IP8_Se8Ak',
          name: 'multiply',
          arguments: '{"a":2,"b":3}',
        },
      ]);
      expect(signatureIn(file)).toMatch(/^CuwBAb4\+9vtZI\+lrRvvljZUd/);
      expect(response.finishReason).toBe('tool_calls');
      expect(response.usage).toEqual(usage(125, 36 + 73, 73));
      expect(response.responseId).toBe('WwCzadOqH-mtz7IP8_Se8Ak');
    });

    it('maps a 400 INVALID_ARGUMENT body to bad_request with its message (gemini/error-400-invalid-argument.json)', async () => {
      server.handle(serveFixture('gemini/error-400-invalid-argument.json', { from: recorded }));
      const error = await gemini()
        .generate(ask)
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(ModelError);
      expect(error).toMatchObject({
        kind: 'bad_request',
        status: 400,
        retryable: false,
        message: 'Penalty is not enabled for models/gemini-2.5-flash',
        model: 'gemini:gemini-2.5-flash',
      });
    });
  });

  describe('Gemini adapter: streamGenerateContent fixtures', () => {
    it('streams a signed function call, skips the empty closing text part (gemini/stream-function-call-thought-signature.sse)', async () => {
      const file = 'gemini/stream-function-call-thought-signature.sse';
      const { parts, response } = await streamed(file);
      expect(parts).toEqual([
        {
          type: 'tool-call',
          id: 'get_country_0_QUVVadTSNJ6_qtsPvN7J8Q0',
          name: 'get_country',
          arguments: '{}',
          index: 0,
          providerMetadata: { gemini: { thoughtSignature: signatureIn(file) } },
        },
        {
          type: 'finish',
          finishReason: 'tool_calls',
          usage: usage(29, 10 + 202, 202),
          responseId: 'QUVVadTSNJ6_qtsPvN7J8Q0',
        },
      ]);
      expect(signatureIn(file)).toMatch(/^EpwICpkIAXLI2nxlU6gs/);
      expect(response.finishReason).toBe('tool_calls');
      expect(server.lastRequest().url).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    });

    it('streams two whole function calls from one event (gemini/stream-parallel-function-calls.sse)', async () => {
      const file = 'gemini/stream-parallel-function-calls.sse';
      const { response } = await streamed(file);
      expect(response).toEqual({
        message: {
          role: 'assistant',
          content: [
            {
              type: 'tool_call',
              id: 'add_0_XQCzaYWvIqfRz7IPupTlyAk',
              name: 'add',
              arguments: '{"b":3,"a":2}',
              providerMetadata: { gemini: { thoughtSignature: signatureIn(file) } },
            },
            {
              type: 'tool_call',
              id: 'multiply_1_XQCzaYWvIqfRz7IPupTlyAk',
              name: 'multiply',
              arguments: '{"a":2,"b":3}',
            },
          ],
        },
        finishReason: 'tool_calls',
        usage: usage(121, 36 + 38, 38),
        responseId: 'XQCzaYWvIqfRz7IPupTlyAk',
      });
    });

    it('streams thought summaries as reasoning and keeps the answer text signature (gemini/stream-thinking-text.sse)', async () => {
      const file = 'gemini/stream-thinking-text.sse';
      const whole = await streamed(file);
      const split = await streamed(file, { chunkSize: 61 });
      expect(split.parts).toEqual(whole.parts);
      const all = recorded.events(file).flatMap((e) => e.candidates[0].content.parts);
      const thoughts = all
        .filter((p: { thought?: boolean }) => p.thought)
        .map((p: { text: string }) => p.text)
        .join('');
      const answer = all
        .filter((p: { thought?: boolean }) => !p.thought)
        .map((p: { text: string }) => p.text)
        .join('');
      const { response } = whole;
      expect(response.message.content).toEqual([
        { type: 'reasoning', text: thoughts, providerMetadata: { gemini: { thought: true } } },
        {
          type: 'reasoning',
          text: '',
          providerMetadata: { gemini: { thoughtSignature: signatureIn(file) } },
        },
        { type: 'text', text: answer },
      ]);
      expect(thoughts).toMatch(/^\*\*Clarifying User Goals\*\*\n\nI'm currently focused on defining/);
      expect(thoughts).toHaveLength(1575);
      expect(answer).toMatch(
        /^This is a great question! Safely crossing the street is all [\s\S]* be predictable\*\*\. Always assume a driver might not see you\.$/,
      );
      expect(signatureIn(file)).toMatch(/^CiIB0e2Kb6Syj1a961Ef/);
      expect(response.finishReason).toBe('stop');
      expect(response.usage).toEqual(usage(34, 469 + 787, 787));
      expect(response.responseId).toBe('beHBaJfEMIi-qtsP3769-Q8');
    });

    it('assembles Vertex partialArgs into two complete calls (gemini/stream-vertex-partial-args.chunks.jsonl)', async () => {
      const file = 'gemini/stream-vertex-partial-args.chunks.jsonl';
      const { parts, response } = await streamed(file);
      expect(parts).toEqual([
        {
          type: 'tool-call-delta',
          index: 0,
          id: 'getWeather_0_dqHOab6xGLzWodAPkPuViA4',
          name: 'getWeather',
          argsDelta: '',
        },
        {
          type: 'tool-call',
          id: 'getWeather_0_dqHOab6xGLzWodAPkPuViA4',
          name: 'getWeather',
          arguments: '{"location":"Boston"}',
          index: 0,
          providerMetadata: { gemini: { thoughtSignature: signatureIn(file) } },
        },
        {
          type: 'tool-call-delta',
          index: 1,
          id: 'getWeather_1_dqHOab6xGLzWodAPkPuViA4',
          name: 'getWeather',
          argsDelta: '',
        },
        {
          type: 'tool-call',
          id: 'getWeather_1_dqHOab6xGLzWodAPkPuViA4',
          name: 'getWeather',
          arguments: '{"location":"San Francisco"}',
          index: 1,
        },
        {
          type: 'finish',
          finishReason: 'tool_calls',
          usage: usage(26, 23 + 132, 132),
          responseId: 'dqHOab6xGLzWodAPkPuViA4',
        },
      ]);
      expect(signatureIn(file)).toMatch(/^CiMBjz1rX25KieIB4d4A/);
      expect(response.message.content.map((p) => (p.type === 'tool_call' ? p.arguments : p.type))).toEqual([
        '{"location":"Boston"}',
        '{"location":"San Francisco"}',
      ]);
    });
  });
}
