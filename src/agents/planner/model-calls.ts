/**
 * How the planner calls its model: the conversation so far (`history`), then
 * the task as a user message `Task: <task>` with its images and files, under
 * the operation's system prompt, `stream: false`, re-asks on an
 * unusable reply (see `generateObject`), usage booked on the planner, on the
 * caller's total and in one `usage` event per operation — failures included —
 * and failures mapped to {@link PlanError}.
 * @module
 */
import type { z } from 'zod/v4';
import { conversationView, framedMessage, type UserContent } from '../../core/run-input.js';
import type { Clock } from '../../core/seams.js';
import { addUsage, emptyUsage, type Usage } from '../../core/usage.js';
import { answeringModelId, type ModelInvoker } from '../../model/invoke.js';
import {
  type GenerateObjectResult,
  generateObject,
  generateWithRetry,
  StructuredOutputError,
} from '../../model/json.js';
import { preview } from '../../model/json-candidates.js';
import { structuredOutputMode } from '../../model/structured.js';
import type { ModelRequest, ModelResponse } from '../../model/types.js';
import type { PlannerCallOptions } from './options.js';
import { PlanError, type PlanErrorKind } from './plan-error.js';

/** What the planner's calls share. */
export interface PlannerCallSettings {
  invoker: ModelInvoker;
  /** The planner's running total, added into in place. */
  usage: Usage;
  clock: Clock;
  attempts: number;
  delays: readonly number[];
  /** JSON operations: the model's own JSON mode (undefined), at least plain JSON (true), or none (false). */
  jsonMode: boolean | undefined;
}

const FAILURE_TEXT: Record<PlanErrorKind, string> = {
  decision_failed: 'Could not decide whether the task needs a plan',
  invalid_plan: 'The planner did not produce a valid plan',
  model_failed: 'The planner model failed',
  enhance_failed: 'Could not get enhanced step instructions',
};

/** One planner operation: its system prompt, the task it asks about, and the error kind of its failure. */
export interface PlannerOperation {
  system: string;
  task: UserContent;
  kind: PlanErrorKind;
}

/** A plain-text operation: with what an empty reply is re-asked. */
export interface TextOperation extends PlannerOperation {
  task: string;
  reask: string;
}

/** The planner's model calls. */
export class PlannerCalls {
  constructor(private readonly settings: PlannerCallSettings) {}

  /**
   * A JSON reply validated by `schema`, in the model's native JSON mode
   * unless `jsonMode` says otherwise; an invalid one is re-asked with the
   * validation errors.
   */
  json<T>(
    schema: z.ZodType<T>,
    operation: PlannerOperation,
    options: PlannerCallOptions,
  ): Promise<GenerateObjectResult<T>> {
    const { jsonMode, invoker } = this.settings;
    const plain = jsonMode === true && structuredOutputMode(invoker.model.info) === 'none';
    const request = this.request(operation, options, plain);
    const native = jsonMode !== false;
    return this.run(operation.kind, options, (usage, onResponse) =>
      generateObject({
        ...this.callOptions(request, options, usage),
        onResponse,
        schema,
        expect: 'object',
        native,
      }),
    );
  }

  /** A plain-text reply; an empty one is re-asked with `operation.reask`. */
  async text(operation: TextOperation, options: PlannerCallOptions): Promise<string> {
    const { reask } = operation;
    const result = await this.run(operation.kind, options, (usage, onResponse) =>
      generateWithRetry({
        ...this.callOptions(this.request(operation, options, false), options, usage),
        onResponse,
        parse: (text) => {
          const trimmed = text.trim();
          if (!trimmed) throw new StructuredOutputError('empty_reply', 'The reply was empty.', { text });
          return trimmed;
        },
        reask: () => reask,
      }),
    );
    return result.object;
  }

  /** Runs one operation, books its usage everywhere (also on failure) and maps failures to {@link PlanError}. */
  private async run<T>(
    kind: PlanErrorKind,
    options: PlannerCallOptions,
    call: (usage: Usage, onResponse: (response: ModelResponse) => void) => Promise<T>,
  ): Promise<T> {
    const usage = emptyUsage();
    const { invoker, usage: total } = this.settings;
    // Booked to the model that answered: after a fallback, not the primary.
    let model = invoker.id;
    try {
      return await call(usage, (response) => {
        model = answeringModelId(response, invoker);
      });
    } catch (error) {
      if (!(error instanceof StructuredOutputError)) throw error;
      const failedKind = kind === 'invalid_plan' && error.kind === 'model_failed' ? 'model_failed' : kind;
      // The reply itself, cut short, so a log line alone shows what the model said (seed: first 200 chars).
      const reply = error.text?.trim() ? ` Response was: ${preview(error.text)}` : '';
      throw new PlanError(
        failedKind,
        `${FAILURE_TEXT[failedKind]}: ${error.message.replace(/\.?$/, '.')}${reply}`,
        {
          cause: error,
          attempts: error.attempts,
          lastReply: error.text,
          usage: error.usage,
        },
      );
    } finally {
      addUsage(total, usage);
      if (options.usage) addUsage(options.usage, usage);
      // One `usage` event per operation keeps run totals (summed from events) complete.
      options.emit?.emit('usage', { model, usage, total: { ...total } });
    }
  }

  private callOptions(request: ModelRequest, options: PlannerCallOptions, usage: Usage) {
    const { invoker, attempts, delays, clock } = this.settings;
    return {
      invoker,
      request,
      attempts,
      delays,
      clock,
      signal: options.signal,
      emit: options.emit,
      usage,
    };
  }

  private request(
    { system, task }: PlannerOperation,
    options: PlannerCallOptions,
    json: boolean,
  ): ModelRequest {
    const messages = [...conversationView(options.history), framedMessage(task, 'Task: ')];
    const request: ModelRequest = { system, messages };
    if (json) request.responseFormat = { type: 'json' };
    return request;
  }
}
