/**
 * One MCP tool call on the wire: progress reports reach the tool's context,
 * the idle and total limits apply, an abort cancels the call on the server,
 * and a task-based tool runs as a task.
 * @module
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Progress, Tool as SdkTool, Task } from '@modelcontextprotocol/sdk/types.js';
import { AbortError } from '../core/errors.js';
import type { ToolContext, ToolProgress } from '../tools/types.js';
import { McpToolError, mcpRequest } from './errors.js';
import type { McpLimits } from './limits.js';
import { callToolAsTask, requiresTask } from './tasks.js';

/** A `tools/call` result, of the current protocol or of 2024-10-07 (`toolResult`). */
export type McpRawResult = Awaited<ReturnType<Client['callTool']>>;

/** One server tool as a call reaches it: the client, the listed definition and the limits. */
export interface McpToolTarget {
  client: Pick<Client, 'callTool' | 'request'>;
  definition: SdkTool;
  limits: McpLimits;
}

/**
 * Calls the target's tool with `args`. Resolves with the server's result, whether
 * or not it reports `isError`.
 * @throws AbortError when `ctx.signal` aborts; {@link McpToolError} of kind
 *   `timeout` past `timeoutMs` without a word from the server or past
 *   `maxTotalTimeoutMs`, else as `fromMcpError` maps the failure.
 */
export async function callMcpTool(
  { client, definition, limits }: McpToolTarget,
  args: Record<string, unknown>,
  ctx: Pick<ToolContext, 'signal' | 'progress'>,
): Promise<McpRawResult> {
  const name = definition.name;
  if (ctx.signal.aborted) throw new AbortError(ctx.signal.reason);
  // One signal for the SDK: the caller's abort or the total limit, either cancels the call on the server.
  const controller = new AbortController();
  const onAbort = () => controller.abort(ctx.signal.reason);
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  let overran = false;
  const cancelTimer = limits.clock.setTimer(limits.maxTotalTimeoutMs, () => {
    overran = true;
    controller.abort(`maxTotalTimeoutMs (${limits.maxTotalTimeoutMs} ms) exceeded`);
  });
  let finished = false;
  const report = (update: ToolProgress) => {
    if (!finished) ctx.progress?.(update);
  };
  const request: RequestOptions & { signal: AbortSignal } = {
    signal: controller.signal,
    timeout: limits.timeoutMs,
    resetTimeoutOnProgress: limits.resetTimeoutOnProgress,
    onprogress: (progress) => report(progressOf(progress)),
  };
  const params = { name, arguments: args };
  const send = () =>
    requiresTask(definition)
      ? callToolAsTask(client, params, { request, clock: limits.clock, onStatus: statusReporter(report) })
      : client.callTool(params, undefined, request);
  try {
    return await mcpRequest(name, ctx.signal, send);
  } catch (error) {
    if (!overran || ctx.signal.aborted) throw error;
    const message = `MCP tool '${name}' ran past maxTotalTimeoutMs (${limits.maxTotalTimeoutMs} ms)`;
    throw new McpToolError('timeout', name, message, { cause: error });
  } finally {
    finished = true;
    cancelTimer();
    ctx.signal.removeEventListener('abort', onAbort);
  }
}

function progressOf({ progress, total, message }: Progress): ToolProgress {
  const update: ToolProgress = { progress };
  if (total !== undefined) update.total = total;
  if (message !== undefined) update.message = message;
  return update;
}

/** Reports a task's status when it changes (polls that find nothing new stay quiet). */
function statusReporter(report: (update: ToolProgress) => void): (task: Task) => void {
  let last: string | undefined;
  return (task) => {
    const message = task.statusMessage ? `${task.status}: ${task.statusMessage}` : task.status;
    if (message === last) return;
    last = message;
    report({ message });
  };
}
