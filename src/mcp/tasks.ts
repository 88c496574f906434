/**
 * Task-based MCP tools (`execution.taskSupport: 'required'`): `tools/call`
 * creates a task, `tasks/get` is polled at the server's `pollInterval`, and
 * `tasks/result` fetches the result. A call that stops early (abort, total
 * timeout) sends `tasks/cancel`, so the server stops the work too.
 * @module
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type CallToolRequest,
  type CallToolResult,
  CallToolResultSchema,
  CancelTaskResultSchema,
  CreateTaskResultSchema,
  GetTaskResultSchema,
  type Task,
} from '@modelcontextprotocol/sdk/types.js';
import { onAbort } from '../core/abort-listeners.js';
import { type Clock, sleep } from '../core/seams.js';
import { McpToolError } from './errors.js';

/** Poll interval when the server suggests none: the SDK's. */
const DEFAULT_POLL_MS = 1000;

/** A cancellation is a courtesy to the server: it never holds up the caller for long. */
const CANCEL_TIMEOUT_MS = 5000;

/** What {@link callToolAsTask} needs besides the call. */
export interface TaskCallOptions {
  /** Options of every request; `signal` stops polling and cancels the task. */
  request: RequestOptions & { signal: AbortSignal };
  clock: Clock;
  /** Told the task's state after creation and after every poll. */
  onStatus(task: Task): void;
}

/** Whether a tool must be called as a task (a plain `tools/call` is rejected with -32600). */
export function requiresTask(definition: { execution?: { taskSupport?: string } }): boolean {
  return definition.execution?.taskSupport === 'required';
}

/**
 * Runs `tools/call` as a task and resolves with the task's result.
 * @throws {@link McpToolError} of kind `tool_error` for a task that failed
 *   without a result or was cancelled by the server; the request's errors as
 *   they are (the caller maps them); the sleep's `AbortError` when `signal` aborts.
 */
export async function callToolAsTask(
  client: Pick<Client, 'request'>,
  params: CallToolRequest['params'],
  options: TaskCallOptions,
): Promise<CallToolResult> {
  const { request, clock, onStatus } = options;
  const { signal } = request;
  const created = await client.request({ method: 'tools/call', params }, CreateTaskResultSchema, {
    ...request,
    task: {},
  });
  const { taskId } = created.task;
  const polls = pollSignals(signal);
  // Polls carry no progress token: progress belongs to the creating request.
  const poll = (): RequestOptions => ({ signal: polls.next(), timeout: request.timeout });
  let task: Task = created.task;
  try {
    for (;;) {
      onStatus(task);
      if (task.status === 'completed' || task.status === 'input_required') {
        // For input_required, tasks/result delivers the server's queued requests and waits for the end.
        return await result(client, taskId, poll());
      }
      if (task.status === 'failed') {
        const failed = task;
        return await result(client, taskId, poll()).catch(() => {
          throw new McpToolError(
            'tool_error',
            params.name,
            failed.statusMessage ?? `MCP task ${taskId} failed`,
          );
        });
      }
      if (task.status === 'cancelled') {
        const why = task.statusMessage ? `: ${task.statusMessage}` : '';
        throw new McpToolError('tool_error', params.name, `MCP task ${taskId} was cancelled${why}`);
      }
      await sleep(clock, task.pollInterval ?? DEFAULT_POLL_MS, signal);
      task = await client.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema, poll());
    }
  } catch (error) {
    if (signal.aborted) cancelTask(client, taskId);
    throw error;
  } finally {
    polls.dispose();
  }
}

/**
 * A signal per poll, all aborted with `signal` through one listener on it.
 * The SDK adds an `abort` listener to every request's signal and never
 * removes it: polls sharing the task's signal would pile one up per
 * `tasks/get`, and Node warns past ten (MaxListenersExceededWarning).
 */
function pollSignals(signal: AbortSignal): { next(): AbortSignal; dispose(): void } {
  let current: AbortController | undefined;
  const dispose = onAbort(signal, () => current?.abort(signal.reason));
  return {
    next() {
      current = new AbortController();
      if (signal.aborted) current.abort(signal.reason);
      return current.signal;
    },
    dispose,
  };
}

function result(client: Pick<Client, 'request'>, taskId: string, options: RequestOptions) {
  return client.request({ method: 'tasks/result', params: { taskId } }, CallToolResultSchema, options);
}

/** Sends `tasks/cancel` without waiting; a task that already ended answers with an error, ignored. */
function cancelTask(client: Pick<Client, 'request'>, taskId: string): void {
  client
    .request({ method: 'tasks/cancel', params: { taskId } }, CancelTaskResultSchema, {
      timeout: CANCEL_TIMEOUT_MS,
    })
    .catch(() => undefined);
}
