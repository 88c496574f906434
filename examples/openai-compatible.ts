/**
 * Talks to any OpenAI-compatible server (OpenAI, Ollama, vLLM, LM Studio,
 * DeepSeek, Qwen, Kimi, GLM, Groq, OpenRouter…) named by environment variables:
 *
 *   OPENAI_BASE_URL  e.g. http://localhost:11434/v1 (default https://api.openai.com/v1)
 *   OPENAI_API_KEY   the server's key (not needed by local servers)
 *   OPENAI_MODEL     the server's model name, e.g. qwen3:8b
 *
 * Run: OPENAI_BASE_URL=http://localhost:11434/v1 OPENAI_MODEL=qwen3:8b npx tsx examples/openai-compatible.ts
 *
 * It streams one reply (reasoning dimmed, then the answer), then asks the
 * model to call a tool, runs it, and sends the result back. With no server
 * configured it explains itself and exits 0.
 */
import { collectStream, type Message, ModelError, type ToolSpec } from 'tandem-agents';
import { createOpenAI } from 'tandem-agents/openai';
import { styles } from './support/colors.js';

// Reasoning dimmed on a terminal, plain when piped or with NO_COLOR.
const { dim } = styles();

const baseURL = process.env.OPENAI_BASE_URL;
const apiKey = process.env.OPENAI_API_KEY;
const modelId = process.env.OPENAI_MODEL;

if (!modelId || (!baseURL && !apiKey)) {
  console.log(`openai-compatible: no server configured, nothing to do.

Set OPENAI_MODEL and either OPENAI_BASE_URL (a compatible server) or
OPENAI_API_KEY (OpenAI itself), for example:

  OPENAI_BASE_URL=http://localhost:11434/v1 OPENAI_MODEL=qwen3:8b npx tsx examples/openai-compatible.ts
  OPENAI_API_KEY=sk-... OPENAI_MODEL=gpt-4o-mini npx tsx examples/openai-compatible.ts`);
  process.exit(0);
}

const provider = createOpenAI({
  baseURL,
  apiKey,
  name: baseURL ? 'compatible' : 'openai',
  timeoutMs: 60_000,
});
const model = provider(modelId);
console.log(`model ${model.id}${model.info.local ? ' (local)' : ''}`);

const clock: ToolSpec = {
  name: 'utc_time',
  description: 'The current UTC time as an ISO-8601 string.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
};

async function main(): Promise<void> {
  const system = 'You are a concise assistant. Use tools when they help.';
  const first: Message[] = [{ role: 'user', content: 'In one sentence: why is the sky blue?' }];

  for await (const part of model.stream({ system, messages: first })) {
    if (part.type === 'reasoning-delta') process.stdout.write(dim(part.delta));
    else if (part.type === 'text-delta') process.stdout.write(part.delta);
    else if (part.type === 'finish') {
      const { inputTokens, outputTokens, reasoningTokens } = part.usage;
      console.log(
        `\n[${part.finishReason}; ${inputTokens} in, ${outputTokens} out, ${reasoningTokens} reasoning]`,
      );
    }
  }

  const messages: Message[] = [{ role: 'user', content: 'What time is it in UTC? Use the tool.' }];
  const asked = await collectStream(model.stream({ system, messages, tools: [clock] }), model.id);
  messages.push(asked.message);
  const calls = asked.message.content.filter((p) => p.type === 'tool_call');
  if (calls.length === 0) {
    console.log('The model answered without calling the tool (some servers need tool parsing enabled).');
    return;
  }
  messages.push({
    role: 'tool',
    content: calls.map((call) => ({
      type: 'tool_result' as const,
      toolCallId: call.id,
      toolName: call.name,
      content: new Date().toISOString(),
    })),
  });
  const answer = await model.generate({ system, messages, tools: [clock] });
  for (const part of answer.message.content) if (part.type === 'text') console.log(part.text);
}

main().catch((error: unknown) => {
  if (error instanceof ModelError) {
    console.error(
      `model error (${error.kind}${error.status ? `, HTTP ${error.status}` : ''}): ${error.message}`,
    );
  } else {
    console.error(error);
  }
  process.exit(1);
});
