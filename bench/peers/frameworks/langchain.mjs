// LangChain v1 `createAgent` (package `langchain`, built on LangGraph) — the
// documented successor of the deprecated createReactAgent — with the same
// scripted BaseChatModel subclass (lib/lc-scripted-model.mjs).
import { createAgent } from 'langchain';
import { SYSTEM_PROMPT, USER_PROMPT } from '../lib/common.mjs';
import { finalTextFromMessages, makeTool, ScriptedChatModel } from '../lib/lc-scripted-model.mjs';

export const meta = {
  id: 'langchain',
  label: 'langchain createAgent',
  packages: ['langchain', '@langchain/core', 'zod'],
  imports: [
    'langchain',
    '@langchain/core/language_models/chat_models',
    '@langchain/core/messages',
    '@langchain/core/tools',
    'zod',
  ],
  api: "createAgent({model, tools, systemPrompt}).invoke / .stream(..., {streamMode: ['updates','messages']})",
};

export async function create({ K, P, stream }) {
  const agent = createAgent({
    model: new ScriptedChatModel(K, P),
    tools: [makeTool()],
    systemPrompt: SYSTEM_PROMPT,
  });
  const config = { recursionLimit: 2 * (K + 5) };
  const input = { messages: [{ role: 'user', content: USER_PROMPT }] };
  if (!stream) {
    return async () => {
      const state = await agent.invoke(input, config);
      return { text: finalTextFromMessages(state.messages) };
    };
  }
  return async () => {
    let events = 0;
    let lastModelUpdate;
    const s = await agent.stream(input, { ...config, streamMode: ['updates', 'messages'] });
    for await (const [mode, chunk] of s) {
      events++;
      if (mode === 'updates' && chunk.model_request) lastModelUpdate = chunk.model_request;
    }
    return { text: finalTextFromMessages(lastModelUpdate.messages), events };
  };
}
