/**
 * How long an MCP tool call may take. A server that reports progress is
 * alive: each `notifications/progress` restarts the idle timeout, and only a
 * total limit ends a call that keeps reporting.
 * @module
 */
import { ConfigError } from '../core/errors.js';
import { type Clock, systemClock } from '../core/seams.js';

/** The MCP SDK's request timeout, kept as tandem's default idle timeout. */
export const DEFAULT_MCP_TIMEOUT_MS = 60_000;

/** The total limit, as a multiple of the idle timeout, when none is given. */
const DEFAULT_TOTAL_FACTOR = 10;

/** The timing options of MCP tool calls, as users give them. */
export interface McpTimingOptions {
  /**
   * Most milliseconds a call may go without an answer or a progress report
   * (the MCP request timeout). Default 60 000, the SDK's.
   */
  timeoutMs?: number;
  /** Whether each progress report restarts `timeoutMs`. Default true. */
  resetTimeoutOnProgress?: boolean;
  /**
   * Most milliseconds a call may take in all, progress or not (task-based
   * calls included). Default 10 × `timeoutMs`.
   */
  maxTotalTimeoutMs?: number;
  /** Timer of `maxTotalTimeoutMs` and of task polling. Default the system clock. */
  clock?: Clock;
}

/** {@link McpTimingOptions} with every default applied. */
export interface McpLimits {
  timeoutMs: number;
  resetTimeoutOnProgress: boolean;
  maxTotalTimeoutMs: number;
  clock: Clock;
}

/**
 * Applies the defaults.
 * @throws ConfigError for a limit that is not a positive number, or a total below the idle timeout.
 */
export function resolveLimits(options: McpTimingOptions): McpLimits {
  for (const key of ['timeoutMs', 'maxTotalTimeoutMs'] as const) {
    const value = options[key];
    if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
      throw new ConfigError(`mcpTools ${key} must be a positive number, got ${value}`);
    }
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
  const maxTotalTimeoutMs = options.maxTotalTimeoutMs ?? timeoutMs * DEFAULT_TOTAL_FACTOR;
  if (maxTotalTimeoutMs < timeoutMs) {
    throw new ConfigError(
      `mcpTools maxTotalTimeoutMs (${maxTotalTimeoutMs}) must not be below timeoutMs (${timeoutMs})`,
    );
  }
  return {
    timeoutMs,
    resetTimeoutOnProgress: options.resetTimeoutOnProgress ?? true,
    maxTotalTimeoutMs,
    clock: options.clock ?? systemClock,
  };
}
