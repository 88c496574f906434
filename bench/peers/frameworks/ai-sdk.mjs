// Vercel AI SDK (`ai`): MockLanguageModelV3 from 'ai/test' with scripted
// doGenerate/doStream, generateText/streamText + tool({inputSchema: zod}) +
// stopWhen: stepCountIs(...).
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import {
  addImpl,
  addSchema,
  decide,
  SYSTEM_PROMPT,
  TOOL_DESCRIPTION,
  TOOL_NAME,
  textDeltas,
  toNumber,
  USER_PROMPT,
} from '../lib/common.mjs';

export const meta = {
  id: 'ai-sdk',
  label: 'ai (Vercel AI SDK)',
  packages: ['ai', 'zod'],
  imports: ['ai', 'zod'],
  api: 'generateText/streamText({model: MockLanguageModelV3, tools, stopWhen: stepCountIs(K+5)})',
};

// The SDK prints provider warnings to the console by default; the mock emits none,
// but keep the console quiet in case.
globalThis.AI_SDK_LOG_WARNINGS = false;

function scan(prompt) {
  let n = 0;
  let sum = 0;
  for (let i = 0; i < prompt.length; i++) {
    const m = prompt[i];
    if (m.role !== 'tool') continue;
    for (const part of m.content) {
      if (part.type === 'tool-result') {
        n++;
        sum += toNumber(part.output);
      }
    }
  }
  return [n, sum];
}

const usage = () => ({
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
});

function makeModel(K, P) {
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      model.doGenerateCalls.length = 0; // the mock records every call; don't let it grow
      const [n, sum] = scan(options.prompt);
      const d = decide(n, sum, K, P);
      if (d.calls) {
        return {
          content: d.calls.map((c) => ({
            type: 'tool-call',
            toolCallId: c.id,
            toolName: c.name,
            input: c.argsJson,
          })),
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage: usage(),
          warnings: [],
        };
      }
      return {
        content: [{ type: 'text', text: d.text }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: usage(),
        warnings: [],
      };
    },
    doStream: async (options) => {
      model.doStreamCalls.length = 0;
      const [n, sum] = scan(options.prompt);
      const d = decide(n, sum, K, P);
      const parts = [{ type: 'stream-start', warnings: [] }];
      if (d.calls) {
        for (const c of d.calls)
          parts.push({ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: c.argsJson });
        parts.push({
          type: 'finish',
          usage: usage(),
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        });
      } else {
        parts.push({ type: 'text-start', id: 't0' });
        for (const delta of textDeltas(d.text)) parts.push({ type: 'text-delta', id: 't0', delta });
        parts.push({ type: 'text-end', id: 't0' });
        parts.push({ type: 'finish', usage: usage(), finishReason: { unified: 'stop', raw: 'stop' } });
      }
      const stream = new ReadableStream({
        start(controller) {
          for (const p of parts) controller.enqueue(p);
          controller.close();
        },
      });
      return { stream };
    },
  });
  return model;
}

export async function create({ K, P, stream }) {
  const model = makeModel(K, P);
  const tools = {
    [TOOL_NAME]: tool({
      description: TOOL_DESCRIPTION,
      inputSchema: addSchema,
      execute: async (args) => addImpl(args),
    }),
  };
  const stopWhen = stepCountIs(K + 5);
  if (!stream) {
    return async () => {
      const r = await generateText({ model, system: SYSTEM_PROMPT, prompt: USER_PROMPT, tools, stopWhen });
      if (r.steps.length !== K) throw new Error(`ai-sdk: expected ${K} steps, got ${r.steps.length}`);
      return { text: r.text };
    };
  }
  return async () => {
    let streamError;
    const r = streamText({
      model,
      system: SYSTEM_PROMPT,
      prompt: USER_PROMPT,
      tools,
      stopWhen,
      onError: ({ error }) => {
        streamError = error;
      },
    });
    let events = 0;
    for await (const part of r.fullStream) {
      events++;
      if (part.type === 'error') streamError = part.error;
    }
    if (streamError) throw streamError;
    const steps = await r.steps;
    if (steps.length !== K) throw new Error(`ai-sdk stream: expected ${K} steps, got ${steps.length}`);
    return { text: await r.text, events };
  };
}
