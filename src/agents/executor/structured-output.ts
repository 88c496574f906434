/**
 * An execution with an output schema: how its answer is held to the schema.
 * Where the model takes tools and a response format in one request (or the
 * executor has no tools), every turn carries the format and the answer is
 * the object; otherwise the loop runs as usual, told what the answer must
 * hold, and one formatting call turns the answer into the object
 * (`structured-answer.ts`). A model without a native mode gets the schema in
 * its system prompt.
 * @module
 */
import type { Schema } from '../../model/schema.js';
import {
  isNativeMode,
  type OutputFormat,
  outputFormat,
  responseFormatFor,
  schemaInstruction,
  structuredOutputMode,
} from '../../model/structured.js';
import type { ChatModel, ModelRequest, StructuredOutputMode, SystemPart } from '../../model/types.js';

/** Re-asks after an answer that does not match the output schema. */
export const DEFAULT_OUTPUT_REASKS = 2;

/** How one execution produces its object. */
export interface OutputPlan {
  format: OutputFormat;
  mode: StructuredOutputMode;
  /** The loop's own requests ask for the object: its answer is the object. */
  inline: boolean;
  /** Re-asks after an answer that does not match. */
  maxReasks: number;
}

/** What the executor brings to an output plan: whether it offers tools, and its re-ask limit. */
export interface OutputExecutor {
  hasTools: boolean;
  /** Re-asks after an answer that does not match. */
  maxReasks: number;
}

/**
 * The plan for `schema` on `model`, its JSON Schema made (see {@link outputFormat}).
 * @throws ConfigError (as a rejection) when `schema` is not a schema or has no JSON Schema.
 */
export async function outputPlan(
  schema: Schema,
  model: ChatModel,
  { hasTools, maxReasks }: OutputExecutor,
): Promise<OutputPlan> {
  const mode = structuredOutputMode(model.info);
  const inline = mode === 'none' || !hasTools || model.info?.structuredOutputWithTools === true;
  return { format: await outputFormat(schema), mode, inline, maxReasks };
}

/** The request fields of every turn with what `plan` adds: the response format, the schema in the prompt. */
export function withOutput(
  base: Omit<ModelRequest, 'messages'>,
  plan: OutputPlan,
): Omit<ModelRequest, 'messages'> {
  const out = { ...base };
  if (!plan.inline) {
    out.system = appendSystem(base.system, formattedLater(plan.format));
    return out;
  }
  const format = responseFormatFor(plan.format, plan.mode);
  if (format) out.responseFormat = format;
  if (!isNativeMode(plan.mode)) {
    out.system = appendSystem(
      base.system,
      `When you give your final answer: ${schemaInstruction(plan.format)}`,
    );
  }
  return out;
}

function formattedLater(format: OutputFormat): string {
  return `Your final answer will be turned into JSON matching this JSON Schema, so make sure it holds everything the schema asks for:\n${JSON.stringify(format.jsonSchema)}`;
}

/** `system` with `text` after it: a new part of a parted prompt, a new paragraph of a string. */
function appendSystem(system: string | SystemPart[] | undefined, text: string): string | SystemPart[] {
  if (Array.isArray(system)) return [...system, { text }];
  return system ? `${system}\n\n${text}` : text;
}
