/**
 * `connectMcp`: start or reach an MCP server, connect a client and list its
 * tools in one call, with one `close()` that ends it all.
 * @module
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ConfigError } from '../core/errors.js';
import { sleep } from '../core/seams.js';
import type { Tool } from '../tools/types.js';
import { type McpLimits, resolveLimits } from './limits.js';
import type { McpRequestOptions } from './pages.js';
import { getMcpPrompt, listMcpPrompts, type McpPrompt, type McpPromptMessages } from './prompts.js';
import {
  listMcpResources,
  listMcpResourceTemplates,
  type McpResource,
  type McpResourceRead,
  type McpResourceTemplate,
  mcpResourceTools,
  readMcpResource,
} from './resources.js';
import { answerSampling, type McpSamplingOptions } from './sampling.js';
import { type McpTool, type McpToolsOptions, mcpTools } from './tools.js';

/** A local server: a process tandem starts, speaking MCP over its stdin/stdout. */
export interface McpStdioServer {
  command: string;
  args?: string[];
  /** Added to the SDK's safe default environment (`PATH`, `HOME`, …), not the whole `process.env`. */
  env?: Record<string, string>;
  cwd?: string;
  /** The child's stderr: shown in this process's stderr, or dropped. Default `'inherit'`. */
  stderr?: 'inherit' | 'ignore';
}

/** A remote server, reached over Streamable HTTP. */
export interface McpHttpServer {
  url: string | URL;
  /** Sent with every request, e.g. `Authorization`. */
  headers?: Record<string, string>;
}

/** Where the server is. */
export type McpServerSpec = McpStdioServer | McpHttpServer;

/** Options of {@link connectMcp}: the tool options plus how the client introduces itself. */
export interface ConnectMcpOptions extends McpToolsOptions {
  /** Client name sent in `initialize`. Default `'tandem'`. */
  clientName?: string;
  /** Client version sent in `initialize`. Default `'1.0.0'`. */
  clientVersion?: string;
  /**
   * Answers the server's `sampling/createMessage` requests with a model of
   * yours. Default: sampling is not offered, and a server that asks anyway
   * gets a JSON-RPC error.
   */
  sampling?: McpSamplingOptions;
}

/** A live connection to an MCP server. */
export interface McpConnection {
  /** The connected SDK client, for what tandem does not wrap (subscriptions, completions, roots…). */
  readonly client: Client;
  /** The server's tools, listed once at connect time. */
  readonly tools: McpTool[];
  /** The server process id, for a stdio server. */
  readonly pid?: number;
  /** Every resource the server lists. */
  listResources(options?: McpRequestOptions): Promise<McpResource[]>;
  /** Every resource template the server lists (none from a server without templates). */
  listResourceTemplates(options?: McpRequestOptions): Promise<McpResourceTemplate[]>;
  /** Reads one resource: its text, and binary contents as image or file parts. */
  readResource(uri: string, options?: McpRequestOptions): Promise<McpResourceRead>;
  /**
   * `list_resources` and `read_resource` (named with the connection's
   * `prefix`), for the model to browse the server's resources:
   * `new Executor({ model, tools: [...mcp.tools, ...mcp.resourceTools()] })`.
   */
  resourceTools(): Tool[];
  /** Every prompt the server lists, with its arguments. */
  listPrompts(options?: McpRequestOptions): Promise<McpPrompt[]>;
  /** Fills in a prompt; its messages are tandem messages, ready for a run's history. */
  getPrompt(
    name: string,
    args?: Record<string, string>,
    options?: McpRequestOptions,
  ): Promise<McpPromptMessages>;
  /**
   * Closes the connection. A Streamable HTTP session is ended with `DELETE`
   * first (bounded by `timeoutMs`), so the server frees it at once; a stdio
   * server's child process is ended (stdin closed, then SIGTERM, then
   * SIGKILL) and `close()` resolves once it exited. Safe to call twice.
   */
  close(): Promise<void>;
}

/**
 * Connects to an MCP server and lists its tools.
 *
 * ```ts
 * const fs = await connectMcp({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] });
 * try {
 *   const result = await new Executor({ model, tools: fs.tools }).run('List the files').result;
 * } finally {
 *   await fs.close();
 * }
 * ```
 * @throws ConfigError for a spec with neither `command` nor `url`; whatever
 *   connecting or listing throws (the connection is closed first).
 */
export async function connectMcp(
  server: McpServerSpec,
  options: ConnectMcpOptions = {},
): Promise<McpConnection> {
  const limits = resolveLimits(options);
  const transport = transportFor(server);
  const client = new Client(
    { name: options.clientName ?? 'tandem', version: options.clientVersion ?? '1.0.0' },
    { capabilities: options.sampling ? { sampling: {} } : {} },
  );
  if (options.sampling) answerSampling(client, options.sampling);
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= endSession(transport, limits).then(() => client.close());
    return closing;
  };
  try {
    await client.connect(transport, options.signal ? { signal: options.signal } : undefined);
    const tools = await mcpTools(client, options);
    const pid = transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined;
    return {
      client,
      tools,
      pid,
      listResources: (opts) => listMcpResources(client, opts),
      listResourceTemplates: (opts) => listMcpResourceTemplates(client, opts),
      readResource: (uri, opts) => readMcpResource(client, uri, opts),
      resourceTools: () => mcpResourceTools(client, options),
      listPrompts: (opts) => listMcpPrompts(client, opts),
      getPrompt: (name, args, opts) => getMcpPrompt(client, name, args, opts),
      close,
    };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

/**
 * Ends a Streamable HTTP session with `DELETE`, so the server frees it now
 * rather than never. A server that does not answer within `timeoutMs`, or
 * answers with an error, does not stop the close.
 */
async function endSession(transport: Transport, { clock, timeoutMs }: McpLimits): Promise<void> {
  if (!(transport instanceof StreamableHTTPClientTransport) || transport.sessionId === undefined) return;
  const deadline = new AbortController();
  await Promise.race([
    transport.terminateSession().catch(() => undefined),
    sleep(clock, timeoutMs, deadline.signal).catch(() => undefined),
  ]);
  deadline.abort();
}

function transportFor(server: McpServerSpec): Transport {
  if ('command' in server && typeof server.command === 'string') {
    return new StdioClientTransport({
      command: server.command,
      args: server.args,
      env: server.env,
      cwd: server.cwd,
      stderr: server.stderr,
    });
  }
  if ('url' in server && server.url !== undefined) {
    const url = typeof server.url === 'string' ? new URL(server.url) : server.url;
    return new StreamableHTTPClientTransport(
      url,
      server.headers ? { requestInit: { headers: server.headers } } : undefined,
    );
  }
  throw new ConfigError('connectMcp needs a `command` (stdio server) or a `url` (Streamable HTTP server)');
}
