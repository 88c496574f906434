/** Helpers of the mcp tests: the fixture and the reference servers as child processes, the fixture in-process. */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { type ConnectMcpOptions, connectMcp, type McpConnection } from '../../src/mcp/index.js';
import type { ToolContext, ToolProgress } from '../../src/tools/types.js';
import { buildServer } from './fixtures/tools.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const serverScript = fileURLToPath(new URL('./fixtures/server.ts', import.meta.url));

/** The reference servers, installed as devDependencies. */
export const everythingScript = `${root}node_modules/@modelcontextprotocol/server-everything/dist/index.js`;
const filesystemScript = `${root}node_modules/@modelcontextprotocol/server-filesystem/dist/index.js`;

/** Starts `@modelcontextprotocol/server-everything` as a child process over stdio. */
export function spawnEverything(options?: ConnectMcpOptions): Promise<McpConnection> {
  return connectMcp(
    { command: process.execPath, args: [everythingScript, 'stdio'], stderr: 'ignore' },
    options,
  );
}

/** Starts `@modelcontextprotocol/server-filesystem` over stdio, allowed into `dir`. */
export function spawnFilesystem(dir: string, options?: ConnectMcpOptions): Promise<McpConnection> {
  return connectMcp({ command: process.execPath, args: [filesystemScript, dir], stderr: 'ignore' }, options);
}

/** A tool context for direct calls, collecting what the tool reports through `progress`. */
export function directContext(signal = new AbortController().signal) {
  const reports: ToolProgress[] = [];
  const progress = (update: ToolProgress) => {
    reports.push(update);
  };
  const ctx = { signal, progress } as ToolContext;
  return { ctx, reports };
}

/** Starts fixtures/server.ts as a real child process over stdio. */
export function spawnFixture(options?: ConnectMcpOptions): Promise<McpConnection> {
  return connectMcp(
    { command: process.execPath, args: ['--import', 'tsx', serverScript], cwd: root, stderr: 'inherit' },
    options,
  );
}

/** A client connected to a fresh in-process fixture server. */
export async function inMemoryFixture(): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await buildServer().connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

/** Resolves when the server logs `message` (the fixture's `slow` logs "slow started"). */
export function serverLogged(client: Client, message: string): Promise<void> {
  return new Promise((resolve) => {
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      if (notification.params.data === message) resolve();
    });
  });
}

/** The fixture's `stats` result. */
export async function serverStats(client: Client): Promise<{ cancelled: number; tasksCancelled: number }> {
  const result = await client.callTool({ name: 'stats', arguments: {} });
  const [part] = result.content as Array<{ text: string }>;
  return JSON.parse(part!.text) as { cancelled: number; tasksCancelled: number };
}
