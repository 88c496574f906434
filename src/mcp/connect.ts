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
}

/** A live connection to an MCP server. */
export interface McpConnection {
  /** The connected SDK client, for prompts, resources or a fresh {@link mcpTools}. */
  readonly client: Client;
  /** The server's tools, listed once at connect time. */
  readonly tools: McpTool[];
  /** The server process id, for a stdio server. */
  readonly pid?: number;
  /**
   * Closes the connection; for a stdio server, ends the child process
   * (stdin closed, then SIGTERM, then SIGKILL) and resolves once it exited.
   * Safe to call twice.
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
  const transport = transportFor(server);
  const client = new Client({
    name: options.clientName ?? 'tandem',
    version: options.clientVersion ?? '1.0.0',
  });
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= client.close();
    return closing;
  };
  try {
    await client.connect(transport, options.signal ? { signal: options.signal } : undefined);
    const tools = await mcpTools(client, options);
    const pid = transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined;
    return { client, tools, pid, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
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
