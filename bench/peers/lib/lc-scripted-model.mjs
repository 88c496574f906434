// Scripted LangChain chat model shared by the langgraph and langchain adapters.
// A BaseChatModel subclass that implements bindTools the way provider
// integrations do (tools converted to OpenAI tool dicts, bound via withConfig),
// plus _generate and _streamResponseChunks (which reports each chunk through
// runManager.handleLLMNewToken, as real integrations do).
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, AIMessageChunk } from '@langchain/core/messages';
import { ChatGenerationChunk } from '@langchain/core/outputs';
import { tool } from '@langchain/core/tools';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { addImpl, addSchema, decide, TOOL_DESCRIPTION, TOOL_NAME, textDeltas, toNumber } from './common.mjs';

function scan(messages) {
  let n = 0;
  let sum = 0;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.type === 'tool') {
      n++;
      sum += toNumber(m.content);
    }
  }
  return [n, sum];
}

export class ScriptedChatModel extends BaseChatModel {
  constructor(K, P) {
    super({});
    this.K = K;
    this.P = P;
  }

  _llmType() {
    return 'scripted';
  }

  bindTools(tools, kwargs) {
    return this.withConfig({ tools: tools.map((t) => convertToOpenAITool(t)), ...kwargs });
  }

  async _generate(messages, _options, _runManager) {
    const [n, sum] = scan(messages);
    const d = decide(n, sum, this.K, this.P);
    const message = d.calls
      ? new AIMessage({
          content: '',
          tool_calls: d.calls.map((c) => ({ id: c.id, name: c.name, args: c.args, type: 'tool_call' })),
        })
      : new AIMessage({ content: d.text });
    return { generations: [{ text: d.text ?? '', message }] };
  }

  async *_streamResponseChunks(messages, _options, runManager) {
    const [n, sum] = scan(messages);
    const d = decide(n, sum, this.K, this.P);
    if (d.calls) {
      const chunk = new ChatGenerationChunk({
        text: '',
        message: new AIMessageChunk({
          content: '',
          tool_call_chunks: d.calls.map((c, i) => ({
            id: c.id,
            name: c.name,
            args: c.argsJson,
            index: i,
            type: 'tool_call_chunk',
          })),
        }),
      });
      yield chunk;
      await runManager?.handleLLMNewToken('', undefined, undefined, undefined, undefined, { chunk });
      return;
    }
    for (const delta of textDeltas(d.text)) {
      const chunk = new ChatGenerationChunk({ text: delta, message: new AIMessageChunk({ content: delta }) });
      yield chunk;
      await runManager?.handleLLMNewToken(delta, undefined, undefined, undefined, undefined, { chunk });
    }
  }
}

export function makeTool() {
  return tool(async (args) => addImpl(args), {
    name: TOOL_NAME,
    description: TOOL_DESCRIPTION,
    schema: addSchema,
  });
}

export function finalTextFromMessages(messages) {
  const last = messages[messages.length - 1];
  return typeof last.content === 'string' ? last.content : last.text;
}
