/**
 * Verification (seed 002): a cheap model judges whether the step results
 * answer the task — PASS, PARTIAL or FAIL, as a line, or as a JSON object in
 * the model's JSON mode when it has one — and a FAIL triggers a re-plan
 * (`replan.ts`).
 * @module
 */
import { errorMessage, isAbortError } from '../../core/errors.js';
import type { Emitter } from '../../core/events.js';
import { type Message, textOf } from '../../core/messages.js';
import { conversationView, framedMessage, type UserContent } from '../../core/run-input.js';
import { answeringModelId, type ModelInvoker } from '../../model/invoke.js';
import { parseJSONLoose } from '../../model/json.js';
import { type OutputFormat, responseFormatFor, structuredOutputMode } from '../../model/structured.js';
import type { ResponseFormat } from '../../model/types.js';
import { jsonSchema } from '../../tools/json-schema.js';
import type { StepRecord } from './dispatch.js';
import type { RunRequest } from './run-request.js';
import type { RunScope } from './run-scope.js';
import { stage } from './stage-events.js';

/** The verifier's judgement; `error` when it could not judge. */
export type Verdict = 'pass' | 'partial' | 'fail' | 'error';

/** A step result as the verifier sees it. */
export interface VerifiedStep {
  id: string;
  status: string;
  output: string;
}

/** Outcome of {@link verifyResults}. */
export interface Verification {
  verdict: Verdict;
  reason: string;
}

/** The verifier's system prompt. */
export const VERIFY_SYSTEM_PROMPT = [
  "You check whether the results of a plan's steps accomplish the user's task.",
  'Answer with exactly one line in one of these forms:',
  'PASS: <why the task is done>',
  'PARTIAL: <what is done and what is missing>',
  'FAIL: <what went wrong and what must be redone>',
].join('\n');

/** The verifier's system prompt for a model with a JSON mode: the same judgement as one JSON object. */
export const VERIFY_JSON_SYSTEM_PROMPT = [
  "You check whether the results of a plan's steps accomplish the user's task.",
  'Reply with one JSON object: {"verdict": "PASS" | "PARTIAL" | "FAIL", "reason": string}.',
  'PASS: the task is done. PARTIAL: some of it is done (say what is missing). FAIL: it went wrong (say what must be redone).',
].join('\n');

/** The verdict's JSON Schema, for models with a native JSON-schema mode (the reply is read by {@link readVerdict}). */
const VERDICT_JSON = {
  type: 'object',
  properties: { verdict: { type: 'string', enum: ['PASS', 'PARTIAL', 'FAIL'] }, reason: { type: 'string' } },
  required: ['verdict', 'reason'],
};
const VERDICT_FORMAT: OutputFormat = {
  schema: jsonSchema(VERDICT_JSON),
  jsonSchema: VERDICT_JSON,
  name: 'verdict',
};

/** Reads a verdict: the text before the first colon decides (seed 002). */
export function parseVerdict(text: string): Verification {
  const trimmed = text.trim();
  const colon = trimmed.indexOf(':');
  const head = (colon >= 0 ? trimmed.slice(0, colon) : trimmed).trim().toUpperCase();
  const reason = colon >= 0 ? trimmed.slice(colon + 1).trim() : trimmed;
  if (head.startsWith('PASS')) return { verdict: 'pass', reason };
  if (head.startsWith('PARTIAL')) return { verdict: 'partial', reason };
  return { verdict: 'fail', reason: reason || 'The verifier gave no verdict.' };
}

/**
 * Asks the verifier model for a verdict on the step results for `task` —
 * with `input` (the request as given, images and files included; default
 * `task`) and the conversation before it (`history`) in view. A failed
 * verifier call is not a failed task: it returns `error` (and the run goes on
 * to finalize); an abort is rethrown.
 */
export async function verifyResults(input: {
  invoker: ModelInvoker;
  task: string;
  input?: UserContent;
  history?: readonly Message[];
  steps: readonly VerifiedStep[];
  signal?: AbortSignal;
  emit: Emitter;
}): Promise<Verification> {
  if (input.steps.length === 0) return { verdict: 'pass', reason: 'No steps to verify.' };
  const lines = input.steps.map((s) => `- Step ${s.id}: ${s.status} - ${s.output.slice(0, 200)}`);
  const format = verdictFormat(input.invoker);
  try {
    const response = await input.invoker.invoke(
      {
        system: format ? VERIFY_JSON_SYSTEM_PROMPT : VERIFY_SYSTEM_PROMPT,
        messages: [
          ...conversationView(input.history),
          framedMessage(
            clipQuery(input.input ?? input.task),
            '<user_query>',
            `</user_query>\n\nStep results:\n${lines.join('\n')}`,
          ),
        ],
        ...(format ? { responseFormat: format } : {}),
      },
      // Not streamed, so no verdict tokens reach the UI; `emit` still carries retries, fallbacks and the span.
      { signal: input.signal, stream: false, emit: input.emit },
    );
    input.emit.emit('usage', {
      model: answeringModelId(response, input.invoker),
      usage: response.usage,
      total: response.usage,
    });
    return readVerdict(textOf(response.message));
  } catch (error) {
    if (isAbortError(error)) throw error;
    return { verdict: 'error', reason: `Verification failed: ${errorMessage(error)}` };
  }
}

/** The request as the verifier reads it: its text cut to 500 characters (per text part), its images and files kept. */
function clipQuery(content: UserContent): UserContent {
  if (typeof content === 'string') return content.slice(0, 500);
  return content.map((part) =>
    part.type === 'text' ? { type: 'text', text: part.text.slice(0, 500) } : part,
  );
}

/** The verdict's response format, for a model with a JSON mode; none for the others (they answer in a line). */
function verdictFormat(invoker: ModelInvoker): ResponseFormat | undefined {
  return responseFormatFor(VERDICT_FORMAT, structuredOutputMode(invoker.model.info));
}

/** A JSON verdict (its words read as a line is, whatever their case), or the line a model answered with. */
function readVerdict(text: string): Verification {
  // Most verifiers answer in a line ("PASS: …"): no JSON to look for, no error built to find that out.
  if (!text.includes('{')) return parseVerdict(text);
  let reply: { verdict?: unknown; reason?: unknown } = {};
  try {
    reply = parseJSONLoose(text, { expect: 'object' }) as typeof reply;
  } catch {
    return parseVerdict(text);
  }
  if (typeof reply.verdict !== 'string') return parseVerdict(text);
  return parseVerdict(`${reply.verdict}: ${typeof reply.reason === 'string' ? reply.reason : ''}`);
}

/** What the verify phase judges: the run's step records, against the request. */
export interface VerifyWork {
  request: RunRequest;
  order: readonly StepRecord[];
}

/** The verify phase: the run's step results judged, recorded as phase `verifying`. */
export async function verifyPhase(
  scope: RunScope,
  invoker: ModelInvoker,
  { request, order }: VerifyWork,
): Promise<Verification> {
  const { bus, recorder, signal } = scope;
  await recorder.phase('verifying');
  return stage(bus, 'verifying', () =>
    verifyResults({
      invoker,
      task: request.text,
      input: request.content,
      history: request.history,
      steps: order.map((r) => ({
        id: r.step.id,
        status: r.status,
        output: r.status === 'completed' ? r.output : (r.error ?? ''),
      })),
      signal,
      emit: bus.scope({ agent: 'verifier' }),
    }),
  );
}
