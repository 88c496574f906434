/**
 * `mcpTools`: the tools of a connected MCP server as tandem tools. The model
 * sees each tool's JSON Schema exactly as the server gave it; tandem checks
 * arguments against it before anything is sent; results come back as text.
 * @module
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool as SdkTool } from '@modelcontextprotocol/sdk/types.js';
import { ConfigError } from '../core/errors.js';
import type { ToolMediaResult } from '../tools/output.js';
import { isRecord } from '../tools/records.js';
import type { Tool, ToolContext, ToolRisk } from '../tools/types.js';
import { callMcpTool } from './call.js';
import { type McpContentPart, resultText } from './content.js';
import { withDefaults } from './defaults.js';
import { McpToolError } from './errors.js';
import { type McpLimits, type McpTimingOptions, resolveLimits } from './limits.js';
import { assertDistinctNames, mcpToolName } from './names.js';
import { listAllPages, signalOption } from './pages.js';
import { argumentsSchema } from './schema.js';
import { requiresTask } from './tasks.js';
import { mcpToolOutput } from './tool-output.js';

/** The part of the SDK's `Client` tandem uses (`request` for task-based tools). */
export type McpClient = Pick<Client, 'listTools' | 'callTool' | 'request'>;

/** An MCP tool as the server describes it in `tools/list`. */
export type McpToolDefinition = SdkTool;

/** Selects tools by their name on the server. */
export type McpToolFilter = readonly string[] | ((name: string, tool: McpToolDefinition) => boolean);

/**
 * Options of {@link mcpTools} and {@link mcpTool}. The timing options
 * (`timeoutMs`, `resetTimeoutOnProgress`, `maxTotalTimeoutMs`) are enforced by
 * the MCP tool itself, which cancels the call on the server when one expires.
 */
export interface McpToolsOptions extends McpTimingOptions {
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

/** An MCP tool call's whole result, for callers that want more than the model sees. */
export interface McpToolResult {
  /** What the model sees: the text the server sent (see {@link resultText}). */
  text: string;
  /** The server's `structuredContent`, as sent: data matching the tool's `outputSchema`. */
  object?: Record<string, unknown>;
  /** The result's content parts, as sent. */
  content: McpContentPart[];
  /** The server reported the call failed (`isError: true`). */
  isError: boolean;
}

/** A tandem tool backed by an MCP server tool. */
export interface McpTool extends Tool<Record<string, unknown>, string | ToolMediaResult> {
  /** The tool's name on the server (what `tools/call` is sent). */
  readonly mcpName: string;
  /** The server's hints (`readOnlyHint`, `destructiveHint`, …), as given. */
  readonly annotations?: McpToolDefinition['annotations'];
  /** The JSON Schema of the tool's `structuredContent`, when the server declares one. */
  readonly outputSchema?: McpToolDefinition['outputSchema'];
  /** Whether calls run as MCP tasks (the server requires it: `execution.taskSupport: 'required'`). */
  readonly taskBased: boolean;
  /**
   * Calls the tool on the server. Resolves with the result's text, or, when
   * it holds images or audio, the text of the rest with those attached; rejects
   * with {@link McpToolError} (`tool_error` when the server reported
   * `isError`, `timeout` past a limit, else the protocol failure) or
   * `AbortError` when `ctx.signal` aborts (the server is sent a cancellation).
   * Progress the server reports goes to `ctx.progress`.
   */
  execute(args: Record<string, unknown>, ctx: ToolContext): Promise<string | ToolMediaResult>;
  /**
   * Calls the tool like `execute`, but resolves with the whole result, an
   * `isError` one included; rejects only when the call itself failed.
   */
  call(args: Record<string, unknown>, ctx: Pick<ToolContext, 'signal' | 'progress'>): Promise<McpToolResult>;
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
  const definitions = await listAllPages(
    'tools/list',
    async (cursor) => {
      const page = await client.listTools(
        cursor === undefined ? {} : { cursor },
        signalOption(options.signal),
      );
      return { items: page.tools, nextCursor: page.nextCursor };
    },
    options.signal,
  );
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
  const limits = checkOptions(options);
  const mcpName = definition.name;
  const jsonSchema = definition.inputSchema as Record<string, unknown>;
  const readOnly = definition.annotations?.readOnlyHint === true;
  const target = { client, definition, limits };
  const call = async (args: Record<string, unknown>, ctx: Pick<ToolContext, 'signal' | 'progress'>) => {
    // Direct callers skip `parameters`, which fills the defaults in a run; filling twice changes nothing.
    const result = await callMcpTool(target, withDefaults(jsonSchema, args), ctx);
    const mcpResult: McpToolResult = {
      text: resultText(result),
      content: Array.isArray(result.content) ? (result.content as McpContentPart[]) : [],
      isError: result.isError === true,
    };
    if (isRecord(result.structuredContent)) mcpResult.object = result.structuredContent;
    return mcpResult;
  };
  return {
    name: mcpToolName(mcpName, options.prefix),
    mcpName,
    description: definition.description ?? definition.title ?? definition.annotations?.title ?? '',
    parameters: argumentsSchema(jsonSchema, options.validate ?? true),
    jsonSchema,
    risk: riskOf(definition, options),
    parallelSafe: readOnly,
    maxOutputChars: options.maxOutputChars,
    annotations: definition.annotations,
    outputSchema: definition.outputSchema,
    taskBased: requiresTask(definition),
    call,
    async execute(args: Record<string, unknown>, ctx: ToolContext): Promise<string | ToolMediaResult> {
      const result = await call(args, ctx);
      const { text, isError } = result;
      if (isError)
        throw new McpToolError('tool_error', mcpName, text || `MCP tool '${mcpName}' reported an error`);
      return mcpToolOutput(result);
    },
  };
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

function checkOptions(options: McpToolsOptions): McpLimits {
  const value = options.maxOutputChars;
  if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
    throw new ConfigError(`mcpTools maxOutputChars must be a positive number, got ${value}`);
  }
  return resolveLimits(options);
}
