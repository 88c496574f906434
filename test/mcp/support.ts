/** Helpers of the mcp tests: the fixture server as a child process, and in-process. */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { type ConnectMcpOptions, connectMcp, type McpConnection } from '../../src/mcp/index.js';
import { buildServer } from './fixtures/tools.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const serverScript = fileURLToPath(new URL('./fixtures/server.ts', import.meta.url));

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
export async function serverStats(client: Client): Promise<{ cancelled: number }> {
  const result = await client.callTool({ name: 'stats', arguments: {} });
  const [part] = result.content as Array<{ text: string }>;
  return JSON.parse(part!.text) as { cancelled: number };
}
