/**
 * Structured output on Anthropic, which has no response-format parameter: a
 * tool whose input is the answer, forced with `tool_choice`. Its `tool_use`
 * comes back as the reply's text (the JSON of its input), so callers see a
 * JSON reply as from any other provider. A tool's input must be an object,
 * so any other schema is wrapped as the `value` of one and unwrapped again.
 * @module
 */
import type { ResponseFormat } from '../../model/types.js';
import type { AnthropicTextBlock, AnthropicTool } from './wire.js';

/** The answer tool of one request. */
export interface AnswerTool {
  name: string;
  /** The schema is not an object's: the answer is the input's `value`. */
  wrapped: boolean;
}

/** The answer tool a response format asks for: one with a schema; none for plain JSON. */
export function answerToolOf(format: ResponseFormat | undefined): AnswerTool | undefined {
  if (!format?.schema) return undefined;
  return { name: format.name ?? 'response', wrapped: format.schema.type !== 'object' };
}

/** The tool definition sent for `tool`. */
export function answerToolSpec(format: ResponseFormat, tool: AnswerTool): AnthropicTool {
  const schema = format.schema!;
  return {
    name: tool.name,
    description: format.description ?? 'Gives the final answer, in the required structure.',
    input_schema: tool.wrapped
      ? { type: 'object', properties: { value: schema }, required: ['value'] }
      : schema,
  };
}

/** Why the model must call the tool itself, when it cannot be forced (other tools, or extended thinking). */
export function answerToolInstruction(tool: AnswerTool): AnthropicTextBlock {
  return { type: 'text', text: `Give your final answer by calling the ${tool.name} tool.` };
}

/** The answer's JSON text from the tool's input. */
export function answerText(tool: AnswerTool, input: unknown): string {
  const value = tool.wrapped ? (input as { value?: unknown } | undefined)?.value : input;
  return JSON.stringify(value ?? null);
}
