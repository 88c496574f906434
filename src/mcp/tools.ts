/**
 * `mcpTools`: the tools of a connected MCP server as tandem tools. The model
 * sees each tool's JSON Schema exactly as the server gave it; tandem checks
 * arguments against it before anything is sent; results come back as text.
 * @module
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool as SdkTool } from '@modelcontextprotocol/sdk/types.js';
import { AbortError, ConfigError } from '../core/errors.js';
import type { Tool, ToolContext, ToolRisk } from '../tools/types.js';
import { resultText } from './content.js';
import { fromMcpError, McpToolError } from './errors.js';
import { assertDistinctNames, mcpToolName } from './names.js';
import { argumentsSchema } from './schema.js';

/** The part of the SDK's `Client` tandem uses. */
export type McpClient = Pick<Client, 'listTools' | 'callTool'>;

/** An MCP tool as the server describes it in `tools/list`. */
export type McpToolDefinition = SdkTool;

/** Selects tools by their name on the server. */
export type McpToolFilter = readonly string[] | ((name: string, tool: McpToolDefinition) => boolean);

/** Options of {@link mcpTools} and {@link mcpTool}. */
export interface McpToolsOptions {
  /** Only these tools (server names, or a predicate). Default: all. */
  include?: McpToolFilter;
  /** Not these tools (server names, or a predicate), applied after `include`. */
  exclude?: McpToolFilter;
  /** Prepended to every tool name, e.g. `github_`, to keep servers apart. Default none. */
  prefix?: string;
  /**
   * Risk of a tool whose annotations say neither read-only nor destructive.
   * Default `'moderate'`.
   */
  defaultRisk?: ToolRisk;
  /**
   * Overrides the risk read from annotations, for every tool or per tool.
   * Annotations are the server's own claims: set this for servers you do not trust.
   */
  risk?: ToolRisk | ((tool: McpToolDefinition) => ToolRisk);
  /** Per-call timeout of every tool; also the MCP request timeout. Default: the SDK's 60 s request timeout. */
  timeoutMs?: number;
  /** Output cap of every tool. Default: the runner's. */
  maxOutputChars?: number;
  /**
   * Validate arguments against the tool's schema before calling. With false,
   * any object is sent and the server validates. Default true.
   */
  validate?: boolean;
  /** Aborts the listing. */
  signal?: AbortSignal;
}

/** A tandem tool backed by an MCP server tool. */
export interface McpTool extends Tool<Record<string, unknown>, string> {
  /** The tool's name on the server (what `tools/call` is sent). */
  readonly mcpName: string;
  /** The server's hints (`readOnlyHint`, `destructiveHint`, …), as given. */
  readonly annotations?: McpToolDefinition['annotations'];
  /**
   * Calls the tool on the server. Resolves with the result's text; rejects
   * with {@link McpToolError} (`tool_error` when the server reported
   * `isError`, else the protocol failure) or `AbortError` when `ctx.signal`
   * aborts (the server is sent a cancellation).
   */
  execute(args: Record<string, unknown>, ctx: ToolContext): Promise<string>;
}

/**
 * Lists every tool of a connected MCP client (following `nextCursor` pages)
 * and wraps each as a tandem tool.
 *
 * ```ts
 * const tools = await mcpTools(client, { prefix: 'github_', exclude: ['delete_repo'] });
 * const executor = new Executor({ model, tools });
 * ```
 * @throws ConfigError for invalid options or two tools mapping to one name;
 *   {@link McpToolError} when listing fails at the protocol level.
 */
export async function mcpTools(client: McpClient, options: McpToolsOptions = {}): Promise<McpTool[]> {
  checkOptions(options);
  const definitions = await listAllTools(client, options.signal);
  const tools = definitions
    .filter((definition) => selected(definition, options))
    .map((definition) => mcpTool(client, definition, options));
  assertDistinctNames(tools);
  return tools;
}

/**
 * Wraps one listed MCP tool. Use it to rebuild tools after a `tools/list_changed`
 * notification from definitions you already have.
 * @throws ConfigError for invalid options.
 */
export function mcpTool(
  client: McpClient,
  definition: McpToolDefinition,
  options: McpToolsOptions = {},
): McpTool {
  checkOptions(options);
  const mcpName = definition.name;
  const timeoutMs = options.timeoutMs;
  const jsonSchema = definition.inputSchema as Record<string, unknown>;
  const readOnly = definition.annotations?.readOnlyHint === true;
  return {
    name: mcpToolName(mcpName, options.prefix),
    mcpName,
    description: definition.description ?? definition.title ?? definition.annotations?.title ?? '',
    parameters: argumentsSchema(jsonSchema, options.validate ?? true),
    jsonSchema,
    risk: riskOf(definition, options),
    parallelSafe: readOnly,
    timeoutMs,
    maxOutputChars: options.maxOutputChars,
    annotations: definition.annotations,
    async execute(args: Record<string, unknown>, ctx: ToolContext): Promise<string> {
      let result: Awaited<ReturnType<McpClient['callTool']>>;
      try {
        // The signal makes the SDK send `notifications/cancelled`, so the server stops too.
        result = await client.callTool(
          { name: mcpName, arguments: args },
          undefined,
          timeoutMs === undefined ? { signal: ctx.signal } : { signal: ctx.signal, timeout: timeoutMs },
        );
      } catch (error) {
        if (ctx.signal.aborted) throw new AbortError(ctx.signal.reason);
        throw fromMcpError(mcpName, error);
      }
      const text = resultText(result);
      if (result.isError === true) {
        throw new McpToolError('tool_error', mcpName, text || `MCP tool '${mcpName}' reported an error`);
      }
      return text;
    },
  };
}

/** Every page of `tools/list`. */
async function listAllTools(
  client: McpClient,
  signal: AbortSignal | undefined,
): Promise<McpToolDefinition[]> {
  const all: McpToolDefinition[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    let page: Awaited<ReturnType<McpClient['listTools']>>;
    try {
      page = await client.listTools(cursor === undefined ? {} : { cursor }, signal ? { signal } : undefined);
    } catch (error) {
      if (signal?.aborted) throw new AbortError(signal.reason);
      throw fromMcpError(undefined, error);
    }
    all.push(...page.tools);
    cursor = page.nextCursor;
    if (cursor !== undefined) {
      // A server that hands out a cursor twice would page forever.
      if (seen.has(cursor))
        throw new McpToolError('protocol', undefined, `tools/list repeated cursor "${cursor}"`);
      seen.add(cursor);
    }
  } while (cursor !== undefined);
  return all;
}

function selected(definition: McpToolDefinition, options: McpToolsOptions): boolean {
  const { include, exclude } = options;
  if (include && !matches(include, definition)) return false;
  return !(exclude && matches(exclude, definition));
}

function matches(filter: McpToolFilter, definition: McpToolDefinition): boolean {
  return typeof filter === 'function'
    ? filter(definition.name, definition)
    : filter.includes(definition.name);
}

/** Read-only → safe; destructive → risky; otherwise the default. Per the MCP spec these are hints. */
function riskOf(definition: McpToolDefinition, options: McpToolsOptions): ToolRisk {
  const { risk } = options;
  if (risk !== undefined) return typeof risk === 'function' ? risk(definition) : risk;
  const annotations = definition.annotations;
  if (annotations?.readOnlyHint === true) return 'safe';
  if (annotations?.destructiveHint === true) return 'risky';
  return options.defaultRisk ?? 'moderate';
}

function checkOptions(options: McpToolsOptions): void {
  for (const key of ['timeoutMs', 'maxOutputChars'] as const) {
    const value = options[key];
    if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
      throw new ConfigError(`mcpTools ${key} must be a positive number, got ${value}`);
    }
  }
}
