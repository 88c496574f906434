/**
 * Gemini sends function calls without ids: ours must still be unique across
 * the turns of a conversation (a tool called on two turns is two calls), and
 * each result must answer its own call.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, Executor, type TandemEvent } from '../../src/index.js';
import { createGemini } from '../../src/providers/gemini/index.js';
import { respond, respondSSE, useFixtureServer } from './fixture-server.js';

const server = useFixtureServer();

/** A reply calling `lookup` once, with `responseId` when given. */
function callReply(city: string, responseId?: string) {
  return {
    candidates: [
      {
        content: { role: 'model', parts: [{ functionCall: { name: 'lookup', args: { city } } }] },
        finishReason: 'STOP',
      },
    ],
    usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 3 },
    ...(responseId ? { responseId } : {}),
  };
}

const answer = {
  candidates: [{ content: { role: 'model', parts: [{ text: 'Done.' }] }, finishReason: 'STOP' }],
  usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 2 },
};

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a city up',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `facts about ${city}`,
});

async function runTwoTurns(replies: unknown[], stream: boolean) {
  server.handle(
    ...replies.map((body) =>
      stream ? respondSSE(`data: ${JSON.stringify(body)}\r\n\r\n`) : respond(200, body),
    ),
  );
  const model = createGemini({ apiKey: 'k', baseURL: `${server.url}/v1beta` })('gemini-2.5-flash');
  const executor = new Executor({ model, tools: [lookup], stream });
  const run = executor.run('Look up Lima, then Quito');
  const events: TandemEvent[] = [];
  run.on('*', (e) => events.push(e));
  const result = await run.result;
  return { result, events };
}

describe('Gemini function call ids', () => {
  for (const stream of [false, true]) {
    for (const withResponseId of [true, false]) {
      it(`are unique across turns (${stream ? 'streamed' : 'generated'}, ${withResponseId ? 'with' : 'without'} responseId)`, async () => {
        const replies = withResponseId
          ? [callReply('Lima', 'r-1'), callReply('Quito', 'r-2'), answer]
          : [callReply('Lima'), callReply('Quito'), answer];
        const { result, events } = await runTwoTurns(replies, stream);
        expect(result.status).toBe('success');
        const calls = events.filter((e) => e.type === 'tool_call');
        expect(calls).toHaveLength(2);
        const ids = calls.map((e) => (e as Extract<TandemEvent, { type: 'tool_call' }>).id);
        expect(new Set(ids).size).toBe(2);
        // Each result answers its own call: the conversation pairs them by id.
        const results = result.messages.flatMap((m) => (m.role === 'tool' ? m.content : []));
        expect(results.map((r) => [r.toolCallId, r.content])).toEqual([
          [ids[0], 'facts about Lima'],
          [ids[1], 'facts about Quito'],
        ]);
        // And Gemini gets one function response per call, after the call it answers.
        const sent = server.lastRequest().body.contents as Array<{ role: string; parts: any[] }>;
        const order = sent.flatMap((c) =>
          c.parts.map((p) =>
            p.functionCall
              ? `call ${p.functionCall.args.city}`
              : p.functionResponse
                ? `response ${p.functionResponse.response.output}`
                : 'text',
          ),
        );
        expect(order).toEqual([
          'text',
          'call Lima',
          'response facts about Lima',
          'call Quito',
          'response facts about Quito',
        ]);
      });
    }
  }
});
