// tandem (this project's build): Executor with a ChatModel fake, one zod tool.
// The tandem build to measure: TANDEM_DIST, by default the repository's dist/
// (`npm run build` first; bench/peers/run.sh does).
const DIST = process.env.TANDEM_DIST ?? new URL('../../../dist/index.js', import.meta.url).href;
const { defineTool, Executor } = await import(DIST);

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
  id: 'tandem',
  label: 'tandem-agents',
  packages: ['zod'],
  imports: [DIST, 'zod'],
  api: 'new Executor({model, tools}).run(input) → for await events / await run.result',
};

const usage = { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, reasoningTokens: 0 };

function scan(messages) {
  let n = 0;
  let sum = 0;
  for (const m of messages) {
    if (m.role !== 'tool') continue;
    for (const p of m.content) {
      n++;
      sum += toNumber(p.content);
    }
  }
  return [n, sum];
}

function model(K, P, stream) {
  const m = {
    id: 'bench:scripted',
    async generate(request) {
      const [n, sum] = scan(request.messages);
      const d = decide(n, sum, K, P);
      const content = d.calls
        ? d.calls.map((c) => ({ type: 'tool_call', id: c.id, name: c.name, arguments: c.argsJson }))
        : [{ type: 'text', text: d.text }];
      return {
        message: { role: 'assistant', content },
        finishReason: d.calls ? 'tool_calls' : 'stop',
        usage,
      };
    },
  };
  if (stream) {
    m.stream = async function* (request) {
      const [n, sum] = scan(request.messages);
      const d = decide(n, sum, K, P);
      if (d.calls)
        for (const c of d.calls) yield { type: 'tool-call', id: c.id, name: c.name, arguments: c.argsJson };
      else for (const delta of textDeltas(d.text)) yield { type: 'text-delta', delta };
      yield { type: 'finish', finishReason: d.calls ? 'tool_calls' : 'stop', usage };
    };
  }
  return m;
}

export async function create({ K, P, stream }) {
  const add = defineTool({
    name: TOOL_NAME,
    description: TOOL_DESCRIPTION,
    parameters: addSchema,
    parallelSafe: true,
    execute: (args) => addImpl(args),
  });
  const executor = new Executor({
    model: model(K, P, stream),
    tools: [add],
    instructions: SYSTEM_PROMPT,
    limits: { maxIterations: K + 5 },
    stream,
  });
  if (!stream) {
    return async () => ({ text: (await executor.run(USER_PROMPT).result).output });
  }
  return async () => {
    const run = executor.run(USER_PROMPT);
    let events = 0;
    for await (const _ev of run) events++;
    return { text: (await run.result).output, events };
  };
}
