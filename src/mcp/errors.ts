/**
 * The error an MCP tool call fails with, so callers (and the events the
 * runner emits) can tell a tool's own failure from a broken connection.
 * @module
 */
import { AbortError, TandemError } from '../core/errors.js';

/**
 * Why an MCP tool call failed: `tool_error` — the server ran the tool and
 * reported `isError: true`; `timeout` — the MCP request timed out;
 * `connection` — the connection closed under the call; `protocol` — any other
 * JSON-RPC error (unknown tool, invalid params, output not matching the
 * tool's output schema…).
 */
export type McpToolErrorKind = 'tool_error' | 'timeout' | 'connection' | 'protocol';

/** JSON-RPC codes the MCP SDK uses for a closed connection and a request timeout. */
const CONNECTION_CLOSED = -32000;
const REQUEST_TIMEOUT = -32001;

/** A failed MCP tool call. The runner turns it into an error result the model sees. */
export class McpToolError extends TandemError<McpToolErrorKind> {
  static override readonly brand: string = 'McpToolError';

  /** The tool's name on the server; absent for a failed `tools/list`. */
  readonly tool?: string;
  /** The JSON-RPC error code, for protocol-level failures. */
  readonly code?: number;
  constructor(
    kind: McpToolErrorKind,
    tool: string | undefined,
    message: string,
    options: { code?: number; cause?: unknown } = {},
  ) {
    super(kind, message, { cause: options.cause });
    this.tool = tool;
    this.code = options.code;
  }
}

/**
 * The typed error for a rejected MCP request. Anything with a numeric `code`
 * is a JSON-RPC error (the SDK's `McpError`, matched by shape so a second
 * copy of the SDK still counts); anything else is returned as is.
 */
export function fromMcpError(tool: string | undefined, error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'number') return error;
  const kind: McpToolErrorKind =
    code === REQUEST_TIMEOUT ? 'timeout' : code === CONNECTION_CLOSED ? 'connection' : 'protocol';
  return new McpToolError(kind, tool, error.message, { code, cause: error });
}

/**
 * Runs one MCP request and gives its failure one identity: `AbortError` when
 * `signal` aborted (whatever the SDK made of it), else {@link fromMcpError}.
 */
export async function mcpRequest<T>(
  tool: string | undefined,
  signal: AbortSignal | undefined,
  send: () => Promise<T>,
): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (signal?.aborted) throw new AbortError(signal.reason);
    throw fromMcpError(tool, error);
  }
}
