/**
 * Gemini's `streamGenerateContent?alt=sse` chunks as {@link ModelStreamPart}s.
 * Each chunk holds whole parts: text and thought parts become deltas, function
 * calls arrive complete (or, on Vertex, as `partialArgs` pieces assembled by
 * {@link PartialArgs}). Usage is cumulative, so the last chunk's counts win.
 * @module
 */
import { ModelError } from '../../core/errors.js';
import type { IdGenerator } from '../../core/seams.js';
import type { ModelStreamPart } from '../../model/types.js';
import { errorFromBody, type ResponseErrorContext } from '../shared/errors.js';
import { parseEventJSON } from '../shared/sse.js';
import { PartialArgs } from './partial-args.js';
import { callIdOf, callMetadata, finishReasonOf, replyScope, usageOf } from './response.js';
import type { GeminiFunctionCall, GeminiResponseBody, GeminiUsage } from './wire.js';

/** One server-sent event's `data:` text. */
export interface RawEvent {
  data: string;
}

interface OpenCall {
  index: number;
  /** The call's id. */
  id: string;
  call: GeminiFunctionCall;
  signature?: string;
  args: PartialArgs;
}

function toolCall(open: OpenCall, args: unknown): ModelStreamPart {
  const part: ModelStreamPart = {
    type: 'tool-call',
    id: open.id,
    name: open.call.name ?? '',
    arguments: JSON.stringify(args ?? {}),
    index: open.index,
  };
  const meta = callMetadata(open.call, open.signature);
  if (meta) part.providerMetadata = meta;
  return part;
}

/**
 * Converts Gemini stream chunks to stream parts; an `error` chunk throws a
 * {@link ModelError}. `ids` names a reply without a `responseId` in its call ids.
 */
export async function* geminiStreamParts(
  events: AsyncIterable<RawEvent>,
  ctx: ResponseErrorContext & { ids: IdGenerator },
): AsyncGenerator<ModelStreamPart> {
  let usage: GeminiUsage | undefined;
  let responseId: string | undefined;
  let finishReason: string | undefined;
  let blocked = false;
  let calls = 0;
  // Named at the first call, so that every id of the reply is the same whatever chunk carries the responseId.
  let reply: string | undefined;
  let open: OpenCall | undefined;
  // A thought part with a signature is a block of its own, so signatures never merge.
  let thoughtBlock = 0;
  const model = `${ctx.provider}:${ctx.model}`;

  for await (const raw of events) {
    if (raw.data === '' || raw.data === '[DONE]') continue;
    const chunk = parseEventJSON(raw.data, model, 'chunk') as GeminiResponseBody;
    if (chunk.error) {
      const code = (chunk.error as { code?: unknown }).code;
      throw errorFromBody({ status: typeof code === 'number' ? code : 500, body: chunk }, ctx);
    }
    if (chunk.usageMetadata) usage = chunk.usageMetadata;
    responseId ??= chunk.responseId;
    if (chunk.promptFeedback?.blockReason) blocked = true;
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      const signature = part.thoughtSignature;
      const fc = part.functionCall;
      if (fc) {
        if (fc.name) {
          if (open) yield toolCall(open, open.args.value);
          open = undefined;
          const index = calls++;
          const id = callIdOf(fc, index, (reply ??= replyScope(responseId, ctx.ids)));
          if (fc.willContinue || fc.partialArgs) {
            open = { index, id, call: fc, signature, args: new PartialArgs() };
            if (fc.partialArgs) open.args.apply(fc.partialArgs);
            yield { type: 'tool-call-delta', index, id, name: fc.name, argsDelta: '' };
          } else {
            yield toolCall({ index, id, call: fc, signature, args: new PartialArgs() }, fc.args);
          }
        } else if (open && fc.partialArgs) {
          open.args.apply(fc.partialArgs);
        } else if (open) {
          // `functionCall: {}` ends the call whose arguments were streamed.
          yield toolCall(open, open.args.value);
          open = undefined;
        }
      } else if (typeof part.text === 'string') {
        if (part.thought) {
          const id = `t${thoughtBlock}`;
          if (signature) {
            yield {
              type: 'reasoning-delta',
              delta: part.text,
              id: `t${++thoughtBlock}`,
              providerMetadata: { gemini: { thought: true, thoughtSignature: signature } },
            };
            thoughtBlock++;
          } else {
            yield {
              type: 'reasoning-delta',
              delta: part.text,
              id,
              providerMetadata: { gemini: { thought: true } },
            };
          }
          continue;
        }
        if (signature) {
          yield {
            type: 'reasoning-delta',
            delta: '',
            id: `s${++thoughtBlock}`,
            providerMetadata: { gemini: { thoughtSignature: signature } },
          };
          thoughtBlock++;
        }
        if (part.text) yield { type: 'text-delta', delta: part.text };
      }
    }
    if (candidate?.finishReason) finishReason = candidate.finishReason;
  }

  if (open) yield toolCall(open, open.args.value);
  if (!finishReason && !blocked) {
    throw new ModelError('invalid_response', `${model}: stream ended without a finishReason`, { model });
  }
  const finish: ModelStreamPart = {
    type: 'finish',
    finishReason: finishReason ? finishReasonOf(finishReason, calls > 0) : 'content_filter',
    usage: usageOf(usage),
  };
  if (responseId) finish.responseId = responseId;
  yield finish;
}
