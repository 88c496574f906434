// LangGraph (@langchain/langgraph + @langchain/core): createReactAgent from
// '@langchain/langgraph/prebuilt' with a scripted BaseChatModel subclass
// (lib/lc-scripted-model.mjs).
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { SYSTEM_PROMPT, USER_PROMPT } from '../lib/common.mjs';
import { finalTextFromMessages, makeTool, ScriptedChatModel } from '../lib/lc-scripted-model.mjs';

export const meta = {
  id: 'langgraph',
  label: '@langchain/langgraph createReactAgent',
  packages: ['@langchain/langgraph', '@langchain/core', 'zod'],
  imports: [
    '@langchain/langgraph/prebuilt',
    '@langchain/core/language_models/chat_models',
    '@langchain/core/messages',
    '@langchain/core/tools',
    'zod',
  ],
  api: "createReactAgent({llm, tools, prompt}).invoke / .stream(..., {streamMode: ['updates','messages']})",
};

export async function create({ K, P, stream }) {
  const agent = createReactAgent({
    llm: new ScriptedChatModel(K, P),
    tools: [makeTool()],
    prompt: SYSTEM_PROMPT,
  });
  // 2 graph steps per model turn (agent + tools); default recursionLimit is 25.
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
    let lastAgentUpdate;
    const s = await agent.stream(input, { ...config, streamMode: ['updates', 'messages'] });
    for await (const [mode, chunk] of s) {
      events++;
      if (mode === 'updates' && chunk.agent) lastAgentUpdate = chunk.agent;
    }
    return { text: finalTextFromMessages(lastAgentUpdate.messages), events };
  };
}
