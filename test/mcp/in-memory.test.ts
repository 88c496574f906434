/**
 * mcpTools against in-process servers (the SDK's InMemoryTransport): the
 * fixture McpServer, and low-level Servers for paging, odd names and
 * protocol errors.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool as SdkTool,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { type McpTool, McpToolError, mcpTools } from '../../src/mcp/index.js';
import { validateSchema } from '../../src/tools/schema.js';
import { inMemoryFixture } from './support.js';

const ctx = () => ({ signal: new AbortController().signal }) as Parameters<McpTool['execute']>[1];

const objectSchema = { type: 'object' as const, properties: {} };

/** A low-level server listing `pages` of tools (cursor = page index) and answering calls with `onCall`. */
async function pagedServer(
  pages: SdkTool[][],
  onCall?: (name: string) => never,
  cursors?: (i: number) => string | undefined,
) {
  const server = new Server({ name: 'paged', version: '1.0.0' }, { capabilities: { tools: {} } });
  const listed: Array<string | undefined> = [];
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const cursor = request.params?.cursor;
    listed.push(cursor);
    const index = cursor === undefined ? 0 : Number(cursor);
    const next = cursors ? cursors(index) : index + 1 < pages.length ? String(index + 1) : undefined;
    return { tools: pages[index]!, ...(next === undefined ? {} : { nextCursor: next }) };
  });
  server.setRequestHandler(CallToolRequestSchema, (request) => onCall!(request.params.name));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return { client, listed };
}

const named = (name: string): SdkTool => ({ name, inputSchema: objectSchema });

describe('mcpTools', () => {
  it('maps the fixture tools in process', async () => {
    const client = await inMemoryFixture();
    const tools = await mcpTools(client, {
      prefix: 'fx_',
      defaultRisk: 'risky',
      maxOutputChars: 500,
      timeoutMs: 5000,
    });
    const add = tools.find((t) => t.mcpName === 'add')!;
    expect(add).toMatchObject({ name: 'fx_add', risk: 'safe', maxOutputChars: 500, taskBased: false });
    // The MCP tool keeps its own limits (cancelling on the server); the runner adds no timer of its own.
    expect(add.timeoutMs).toBeUndefined();
    expect(tools.find((t) => t.mcpName === 'fail')!.risk).toBe('risky');
    expect(await add.execute({ a: 40, b: 2 }, ctx())).toBe('42');
    await client.close();
  });

  it('follows nextCursor through every page of tools/list', async () => {
    const { client, listed } = await pagedServer([[named('a')], [named('b'), named('c')], [named('d')]]);
    const tools = await mcpTools(client);
    expect(tools.map((t) => t.name)).toEqual(['a', 'b', 'c', 'd']);
    expect(listed).toEqual([undefined, '1', '2']);
  });

  it('fails instead of paging forever when the server repeats a cursor', async () => {
    const { client } = await pagedServer([[named('a')], [named('b')]], undefined, () => '1');
    await expect(mcpTools(client)).rejects.toMatchObject({ kind: 'protocol' });
  });

  it('sanitises names to the provider-safe form', async () => {
    const long = `search.${'x'.repeat(80)}`;
    const { client } = await pagedServer([[named('files/read text'), named('ok-name_1'), named(long)]]);
    const tools = await mcpTools(client, { prefix: 'gh.' });
    const names = tools.map((t) => t.name);
    expect(names.slice(0, 2)).toEqual(['gh_files_read_text', 'gh_ok-name_1']);
    expect(names[2]).toMatch(/^gh_search_x{45}_[0-9a-f]{8}$/);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(tools.map((t) => t.mcpName)).toEqual(['files/read text', 'ok-name_1', long]);
    expect((await mcpTools(client, { prefix: 'gh.' })).map((t) => t.name)).toEqual(names);
  });

  it('throws ConfigError when two server tools map to the same name', async () => {
    const { client } = await pagedServer([[named('read.file'), named('read_file')]]);
    const error = await mcpTools(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('"read.file" and "read_file"');
    expect((await mcpTools(client, { exclude: ['read.file'] })).map((t) => t.name)).toEqual(['read_file']);
  });

  it('keeps apart long names that share their first 64 characters', async () => {
    const stem = 'y'.repeat(70);
    const { client } = await pagedServer([[named(`${stem}_one`), named(`${stem}_two`)]]);
    const names = (await mcpTools(client)).map((t) => t.name);
    expect(new Set(names).size).toBe(2);
  });

  it('uses the risk option over annotations', async () => {
    const client = await inMemoryFixture();
    const fixed = await mcpTools(client, { risk: 'risky' });
    expect(new Set(fixed.map((t) => t.risk))).toEqual(new Set(['risky']));
    const computed = await mcpTools(client, { risk: (tool) => (tool.name === 'add' ? 'moderate' : 'safe') });
    expect(computed.find((t) => t.name === 'add')!.risk).toBe('moderate');
    await client.close();
  });

  it('reports a JSON-RPC error as McpToolError with its code', async () => {
    const { client } = await pagedServer([[named('broken')]], () => {
      throw new McpError(ErrorCode.InvalidParams, 'bad params');
    });
    const [broken] = await mcpTools(client);
    const error = await broken!.execute({}, ctx()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpToolError);
    expect(error).toMatchObject({ kind: 'protocol', code: ErrorCode.InvalidParams, tool: 'broken' });
  });

  it('with validate: false accepts any object and leaves checking to the server', async () => {
    const client = await inMemoryFixture();
    const add = (await mcpTools(client, { validate: false })).find((t) => t.name === 'add')!;
    expect((await validateSchema(add.parameters, { a: 'x' })).success).toBe(true);
    expect((await validateSchema(add.parameters, [1])).success).toBe(false);
    await expect(add.execute({ a: 'x' } as never, ctx())).rejects.toMatchObject({ kind: 'tool_error' });
    await client.close();
  });

  it('rejects invalid options with ConfigError', async () => {
    const client = await inMemoryFixture();
    await expect(mcpTools(client, { timeoutMs: 0 })).rejects.toBeInstanceOf(ConfigError);
    await expect(mcpTools(client, { maxTotalTimeoutMs: -1 })).rejects.toBeInstanceOf(ConfigError);
    await expect(mcpTools(client, { timeoutMs: 1000, maxTotalTimeoutMs: 500 })).rejects.toBeInstanceOf(
      ConfigError,
    );
    await client.close();
  });
});
