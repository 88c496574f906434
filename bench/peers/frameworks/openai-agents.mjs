// OpenAI Agents SDK (@openai/agents): a scripted Model + ModelProvider, an Agent
// with one zod-typed tool(), driven by Runner.run (tracing disabled).
import { Agent, Runner, setTracingDisabled, tool, Usage } from '@openai/agents';
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
  id: 'openai-agents',
  label: '@openai/agents',
  packages: ['@openai/agents', 'zod'],
  imports: ['@openai/agents', 'zod'],
  api: 'Runner({modelProvider, tracingDisabled:true}).run(agent, input[, {stream:true}]) with Model.getResponse/getStreamedResponse',
};

// Belt and braces: the runner option below already disables tracing for these
// runs; this also turns off the global trace provider.
setTracingDisabled(true);

function scan(input) {
  let n = 0;
  let sum = 0;
  if (typeof input === 'string') return [0, 0];
  for (let i = 0; i < input.length; i++) {
    const it = input[i];
    if (it.type === 'function_call_result') {
      n++;
      sum += toNumber(it.output);
    }
  }
  return [n, sum];
}

let respSeq = 0;

function outputFor(d) {
  if (d.calls) {
    return d.calls.map((c) => ({
      type: 'function_call',
      id: `fc_${c.id}`,
      callId: c.id,
      name: c.name,
      status: 'completed',
      arguments: c.argsJson,
    }));
  }
  return [
    {
      type: 'message',
      id: `msg_${respSeq}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: d.text }],
    },
  ];
}

class ScriptedModel {
  constructor(K, P) {
    this.K = K;
    this.P = P;
  }

  async getResponse(request) {
    const [n, sum] = scan(request.input);
    const d = decide(n, sum, this.K, this.P);
    respSeq++;
    return {
      usage: new Usage({ requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 }),
      output: outputFor(d),
      responseId: `resp_${respSeq}`,
    };
  }

  async *getStreamedResponse(request) {
    const [n, sum] = scan(request.input);
    const d = decide(n, sum, this.K, this.P);
    respSeq++;
    const output = outputFor(d);
    yield { type: 'response_started' };
    if (d.text !== undefined) {
      for (const delta of textDeltas(d.text))
        yield { type: 'output_text_delta', itemId: output[0].id, delta };
    }
    yield {
      type: 'response_done',
      response: {
        id: `resp_${respSeq}`,
        usage: { requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 },
        output,
      },
    };
  }
}

class ScriptedProvider {
  constructor(model) {
    this.model = model;
  }
  getModel() {
    return this.model;
  }
}

export async function create({ K, P, stream }) {
  const addTool = tool({
    name: TOOL_NAME,
    description: TOOL_DESCRIPTION,
    parameters: addSchema,
    execute: async (args) => addImpl(args),
  });
  const agent = new Agent({
    name: 'calculator',
    instructions: SYSTEM_PROMPT,
    model: 'scripted',
    tools: [addTool],
  });
  const runner = new Runner({
    modelProvider: new ScriptedProvider(new ScriptedModel(K, P)),
    tracingDisabled: true,
  });
  const maxTurns = K + 5; // default maxTurns is 10
  if (!stream) {
    return async () => {
      const result = await runner.run(agent, USER_PROMPT, { maxTurns });
      return { text: result.finalOutput };
    };
  }
  return async () => {
    const result = await runner.run(agent, USER_PROMPT, { maxTurns, stream: true });
    let events = 0;
    for await (const _ev of result) events++;
    await result.completed;
    return { text: result.finalOutput, events };
  };
}
