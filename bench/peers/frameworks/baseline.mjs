// Hand-written minimal agent loop in plain JavaScript: a messages array, a call to
// the fake model, zod-validated tool execution (parallel calls via Promise.all),
// tool results pushed back. This approximates the physical limit for the loop
// while doing the same per-call work the frameworks must do (JSON.parse of the
// arguments + zod validation + stringified result).
import {
  addImpl,
  addSchema,
  decide,
  SYSTEM_PROMPT,
  TOOL_NAME,
  textDeltas,
  USER_PROMPT,
} from '../lib/common.mjs';

export const meta = {
  id: 'baseline',
  label: 'baseline (hand loop)',
  packages: ['zod'],
  imports: ['zod'],
  api: 'plain async loop, zod.parse, Promise.all for tool calls',
};

const tools = {
  [TOOL_NAME]: { schema: addSchema, execute: async (args) => addImpl(args) },
};

function scan(messages) {
  let n = 0;
  let sum = 0;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.role === 'tool') {
      n++;
      sum += Number(m.content);
    }
  }
  return [n, sum];
}

// Fake model, non-streaming: returns an assistant message.
async function fakeModel(messages, K, P) {
  const [n, sum] = scan(messages);
  const d = decide(n, sum, K, P);
  if (d.calls) {
    return {
      role: 'assistant',
      content: '',
      toolCalls: d.calls.map((c) => ({ id: c.id, name: c.name, arguments: c.argsJson })),
    };
  }
  return { role: 'assistant', content: d.text, toolCalls: [] };
}

// Fake model, streaming: yields events like a provider adapter would.
async function* fakeModelStream(messages, K, P) {
  const [n, sum] = scan(messages);
  const d = decide(n, sum, K, P);
  yield { type: 'start' };
  if (d.calls) {
    for (const c of d.calls) yield { type: 'tool-call', id: c.id, name: c.name, arguments: c.argsJson };
  } else {
    for (const delta of textDeltas(d.text)) yield { type: 'text-delta', delta };
  }
  yield { type: 'finish' };
}

async function runTool(call) {
  const tool = tools[call.name];
  if (!tool) throw new Error(`unknown tool ${call.name}`);
  const args = tool.schema.parse(JSON.parse(call.arguments));
  const result = await tool.execute(args);
  return { role: 'tool', toolCallId: call.id, name: call.name, content: JSON.stringify(result) };
}

async function agentLoop(K, P, maxTurns) {
  const messages = [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: USER_PROMPT },
  ];
  for (let turn = 0; turn < maxTurns; turn++) {
    const reply = await fakeModel(messages, K, P);
    messages.push(reply);
    if (reply.toolCalls.length === 0) return { text: reply.content, messages };
    const results = await Promise.all(reply.toolCalls.map(runTool));
    for (const r of results) messages.push(r);
  }
  throw new Error('max turns exceeded');
}

// Streaming loop: an async generator that forwards every model event plus a
// tool-result event per call, and accumulates the assistant message.
async function* agentLoopStream(K, P, maxTurns, out) {
  const messages = [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: USER_PROMPT },
  ];
  for (let turn = 0; turn < maxTurns; turn++) {
    let text = '';
    const toolCalls = [];
    for await (const ev of fakeModelStream(messages, K, P)) {
      if (ev.type === 'text-delta') text += ev.delta;
      else if (ev.type === 'tool-call') toolCalls.push({ id: ev.id, name: ev.name, arguments: ev.arguments });
      yield ev;
    }
    messages.push({ role: 'assistant', content: text, toolCalls });
    if (toolCalls.length === 0) {
      out.text = text;
      return;
    }
    const results = await Promise.all(toolCalls.map(runTool));
    for (const r of results) {
      messages.push(r);
      yield { type: 'tool-result', id: r.toolCallId, result: r.content };
    }
  }
  throw new Error('max turns exceeded');
}

export async function create({ K, P, stream }) {
  const maxTurns = K + 5;
  if (!stream) {
    return async () => {
      const r = await agentLoop(K, P, maxTurns);
      return { text: r.text };
    };
  }
  return async () => {
    const out = { text: undefined };
    let events = 0;
    for await (const _ev of agentLoopStream(K, P, maxTurns, out)) events++;
    return { text: out.text, events };
  };
}
