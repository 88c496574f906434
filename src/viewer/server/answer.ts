/**
 * `POST …/interrupts/:interruptId`: a human's answer to one of a run's
 * questions, delivered through the run's interrupt bus. It needs the run's
 * token in the `x-tandem-token` header and a JSON body: a cross-site page
 * can neither read the token (the handler sends no CORS headers) nor send
 * that header or a JSON body without a preflight the handler never grants,
 * and the token of one run never answers another's questions.
 * @module
 */
import { isErrorOf } from '../../core/errors.js';
import { InterruptError } from '../../safety/approvals/interrupts.js';
import { TOKEN_HEADER } from '../protocol.js';
import { fail, json } from './html.js';
import type { RunEntry } from './runs.js';

/** Largest answer body accepted. */
const MAX_BODY_BYTES = 64 * 1024;

/** Delivers the answer in `request` to `interruptId` of `entry`. */
export async function answerInterrupt(
  request: Request,
  entry: RunEntry,
  interruptId: string,
): Promise<Response> {
  const given = request.headers.get(TOKEN_HEADER) ?? '';
  if (!entry.bus || entry.source !== 'live') {
    return fail(409, 'not_answerable', 'This run has no interrupt bus here: its questions are read-only');
  }
  if (!sameText(given, entry.token))
    return fail(403, 'bad_token', 'Missing or wrong answer token for this run');
  if (!(request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json')) {
    return fail(415, 'unsupported_media_type', 'Send the answer as application/json');
  }
  if (Number(request.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) {
    return fail(413, 'too_large', `An answer is at most ${MAX_BODY_BYTES} bytes`);
  }
  if (!entry.pending.has(interruptId)) {
    return fail(404, 'unknown_interrupt', `Run ${entry.runId} is not waiting on ${interruptId}`);
  }
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES)
    return fail(413, 'too_large', `An answer is at most ${MAX_BODY_BYTES} bytes`);
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    return fail(400, 'bad_request', 'The body is not JSON');
  }
  if (
    typeof answer !== 'object' ||
    answer === null ||
    typeof (answer as { action?: unknown }).action !== 'string'
  ) {
    return fail(400, 'bad_request', 'The body needs a string "action"');
  }
  const { action, value } = answer as { action: string; value?: unknown };
  try {
    const accepted = await entry.bus.respond(
      interruptId,
      value === undefined ? { action } : { action, value },
    );
    return accepted
      ? json({ ok: true })
      : fail(409, 'closed', 'No one is waiting for this answer any more: it was answered, or it timed out');
  } catch (error) {
    if (isErrorOf(error, InterruptError) && error.kind === 'invalid_response') {
      return fail(400, 'invalid_response', error.message);
    }
    return fail(502, 'bus', 'The interrupt bus could not deliver the answer');
  }
}

/** Compares in time independent of where the texts differ, so timing does not reveal a token's prefix. */
function sameText(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) diff |= (a.charCodeAt(i) || 0) ^ b.charCodeAt(i);
  return diff === 0;
}
