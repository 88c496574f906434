/**
 * Sampling: a server asks the client's model for a completion
 * (`sampling/createMessage`). tandem answers with a model the user gives,
 * after an optional approval; without one, the client does not declare the
 * capability and the server gets a JSON-RPC error.
 * @module
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type CreateMessageRequest,
  CreateMessageRequestSchema,
  type CreateMessageResult,
  ErrorCode,
} from '@modelcontextprotocol/sdk/types.js';
import { ConfigError, errorMessage } from '../core/errors.js';
import { textOf } from '../core/messages.js';
import type { ChatModel, FinishReason, ModelRequest } from '../model/types.js';
import type { McpContentPart } from './content.js';
import { mcpMessage } from './parts.js';

/** What a server asks for: its messages, system prompt, `maxTokens`, preferences. */
export type McpSamplingRequest = CreateMessageRequest['params'];

/** The JSON-RPC code MCP's specification shows for a sampling request the user declined. */
export const SAMPLING_DECLINED = -1;

/** How sampling requests are answered. */
export interface McpSamplingOptions {
  /** The model that answers. Server model preferences are hints, not followed. */
  model: ChatModel;
  /**
   * Asked before each request reaches the model (the MCP specification wants
   * a human able to decline). False declines it: the server gets error -1.
   * Default: every request is answered.
   */
  approve?: (request: McpSamplingRequest) => boolean | Promise<boolean>;
  /** Most tokens a server may ask for in one request; more is cut down to this. Default: as asked. */
  maxTokens?: number;
}

/**
 * Answers the client's `sampling/createMessage` requests with
 * `options.model`. The client must declare the `sampling` capability
 * (`connectMcp` does when given `sampling`).
 * @throws ConfigError for a `maxTokens` that is not a positive integer.
 */
export function answerSampling(client: Pick<Client, 'setRequestHandler'>, options: McpSamplingOptions): void {
  const { model, approve, maxTokens } = options;
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && maxTokens > 0)) {
    throw new ConfigError(`sampling maxTokens must be a positive integer, got ${maxTokens}`);
  }
  client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
    const params = request.params;
    if (params.tools !== undefined) {
      throw rpcError(ErrorCode.InvalidParams, 'This client answers sampling requests without tools');
    }
    if (approve && !(await approve(params))) {
      throw rpcError(SAMPLING_DECLINED, 'The user declined the sampling request');
    }
    const modelRequest: ModelRequest = {
      messages: params.messages.map((m) =>
        mcpMessage(m.role, m.content as McpContentPart | McpContentPart[]),
      ),
      maxOutputTokens: maxTokens === undefined ? params.maxTokens : Math.min(maxTokens, params.maxTokens),
    };
    if (params.systemPrompt !== undefined) modelRequest.system = params.systemPrompt;
    if (params.temperature !== undefined) modelRequest.temperature = params.temperature;
    if (params.stopSequences !== undefined) modelRequest.stop = params.stopSequences;
    let response: Awaited<ReturnType<ChatModel['generate']>>;
    try {
      response = await model.generate(modelRequest, { signal: extra.signal });
    } catch (error) {
      throw rpcError(ErrorCode.InternalError, `Sampling failed: ${errorMessage(error)}`);
    }
    const result: CreateMessageResult = {
      model: model.id,
      role: 'assistant',
      content: { type: 'text', text: textOf(response.message) },
      stopReason: stopReason(response.finishReason),
    };
    return result;
  });
}

function stopReason(reason: FinishReason): string {
  if (reason === 'stop') return 'endTurn';
  if (reason === 'length') return 'maxTokens';
  return reason;
}

/**
 * An error the SDK sends back as `{ code, message }`. Not the SDK's
 * `McpError`: its message already starts with `MCP error <code>:`, which the
 * server's SDK would prefix a second time.
 */
function rpcError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}
