/**
 * MCP prompts: templates a server offers (`prompts/list`), filled in by
 * `prompts/get` and given back as tandem messages, ready for a run's history.
 * @module
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Prompt } from '@modelcontextprotocol/sdk/types.js';
import type { Message } from '../core/messages.js';
import type { McpContentPart } from './content.js';
import { mcpRequest } from './errors.js';
import { listAllPages, type McpRequestOptions, signalOption } from './pages.js';
import { mcpMessage } from './parts.js';

/** A prompt as `prompts/list` describes it, with its arguments. */
export type McpPrompt = Prompt;

/** A filled-in prompt. */
export interface McpPromptMessages {
  description?: string;
  /**
   * The prompt's messages: user messages keep images and audio as media
   * parts; an assistant message holds text (media as a placeholder).
   */
  messages: Message[];
}

/** Every prompt the server lists, following `nextCursor`. */
export function listMcpPrompts(
  client: Pick<Client, 'listPrompts'>,
  options: McpRequestOptions = {},
): Promise<McpPrompt[]> {
  const { signal } = options;
  return listAllPages(
    'prompts/list',
    async (cursor) => {
      const page = await client.listPrompts(cursor === undefined ? {} : { cursor }, signalOption(signal));
      return { items: page.prompts, nextCursor: page.nextCursor };
    },
    signal,
  );
}

/**
 * Fills in prompt `name` with `args` (string values, as MCP prompts take).
 * @throws {@link McpToolError} (kind `protocol` for an unknown prompt or a
 *   missing required argument) or `AbortError`.
 */
export async function getMcpPrompt(
  client: Pick<Client, 'getPrompt'>,
  name: string,
  args: Record<string, string> = {},
  options: McpRequestOptions = {},
): Promise<McpPromptMessages> {
  const { signal } = options;
  const prompt = await mcpRequest(undefined, signal, () =>
    client.getPrompt({ name, arguments: args }, signalOption(signal)),
  );
  const messages = prompt.messages.map((m) => mcpMessage(m.role, m.content as McpContentPart));
  return prompt.description === undefined ? { messages } : { description: prompt.description, messages };
}
