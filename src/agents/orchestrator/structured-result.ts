/**
 * The object of a run with an output schema. A simple run's executor makes
 * it itself (its loop asks for it); any other answer — a plan's finalized
 * answer, an agent's, a skill's — is turned into it by one formatting call,
 * which streams `partial_object` events; a saved run that completed holds it
 * in its output already. An output guardrail that changes the answer must
 * leave an answer that still matches.
 * @module
 */
import { RunError } from '../../core/errors.js';
import { emptyUsage } from '../../core/usage.js';
import { extractObject, StructuredOutputError } from '../../model/json.js';
import { invokerFactory } from '../../model/resilience/invoker-options.js';
import type { Schema } from '../../model/schema.js';
import { DEFAULT_OUTPUT_REASKS, formatAnswer, type ObjectCall, outputPlan } from '../executor/index.js';
import type { RunContext } from './collaborators.js';
import type { PhaseResult } from './phase-result.js';

/** `result` with its object: as the executor made it, or from one formatting call. */
export async function withRunObject(
  run: RunContext,
  result: PhaseResult,
  schema: Schema,
): Promise<PhaseResult> {
  if (result.object !== undefined) return result;
  const structured = await formatAnswer(
    await objectCall(run, schema),
    run.scope.recorder.state.task,
    result.output,
  );
  return { ...result, output: structured.json, object: structured.object };
}

/** The result of a saved run that completed: its recorded output is the object's JSON, or is formatted. */
export async function savedObject(
  run: RunContext,
  result: PhaseResult,
  schema: Schema | undefined,
): Promise<PhaseResult> {
  if (!schema) return result;
  try {
    const { object, json } = await extractObject(result.output, schema);
    return { ...result, output: json, object };
  } catch (error) {
    if (!(error instanceof StructuredOutputError)) throw error;
  }
  return withRunObject(run, result, schema);
}

/**
 * `result` after the output guardrail replaced its answer with `text`: the
 * object `text` still holds.
 * @throws RunError `guardrail` when the changed answer no longer matches the schema.
 */
export async function guardedObject(result: PhaseResult, schema: Schema, text: string): Promise<PhaseResult> {
  try {
    const { object, json } = await extractObject(text, schema);
    return { ...result, output: json, object };
  } catch (error) {
    if (!(error instanceof StructuredOutputError)) throw error;
    throw new RunError(
      'guardrail',
      'The output guardrail changed the answer, which no longer matches the output schema',
      {
        cause: error,
      },
    );
  }
}

/** The formatting call: the finalizer model (else the executor's), on the run's signal and events. */
async function objectCall({ scope, parts }: RunContext, schema: Schema): Promise<ObjectCall> {
  const { options, runtime, finalizer } = parts;
  const invoker = finalizer.invoker ?? invokerFactory(options, runtime)(options.executor);
  const reasks = options.executorOptions.limits?.maxOutputReasks ?? DEFAULT_OUTPUT_REASKS;
  return {
    invoker,
    plan: await outputPlan(schema, invoker.model, { hasTools: false, maxReasks: reasks }),
    clock: runtime.clock,
    signal: scope.signal,
    emit: scope.bus.scope({ agent: 'finalizer' }),
    // The run's bus sums the `usage` event this call emits.
    usage: emptyUsage(),
    stream: options.executorOptions.stream !== false,
  };
}
