/**
 * connectMcp over Streamable HTTP against the SDK's own server transport on
 * a loopback node:http server.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, type McpTool } from '../../src/mcp/index.js';
import { buildServer } from './fixtures/tools.js';

let http: Server;
let url: string;
const seenHeaders: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  // Stateless mode: a fresh MCP server and transport per HTTP request.
  http = createServer(async (req, res) => {
    seenHeaders.push(req.headers);
    const server = buildServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  await new Promise((resolve) => http.close(resolve));
});

describe('mcp over Streamable HTTP', () => {
  it('lists and calls tools, sending the configured headers', async () => {
    const connection = await connectMcp(
      { url, headers: { authorization: 'Bearer test-token' } },
      { include: ['add'] },
    );
    try {
      expect(connection.pid).toBeUndefined();
      expect(connection.tools.map((t) => t.name)).toEqual(['add']);
      const ctx = { signal: new AbortController().signal } as Parameters<McpTool['execute']>[1];
      expect(await connection.tools[0]!.execute({ a: 20, b: 22 }, ctx)).toBe('42');
      expect(seenHeaders.length).toBeGreaterThan(0);
      for (const headers of seenHeaders) expect(headers.authorization).toBe('Bearer test-token');
    } finally {
      await connection.close();
    }
  });

  it('rejects, and leaves nothing open, when the server is not there', async () => {
    await expect(connectMcp({ url: 'http://127.0.0.1:1/mcp' })).rejects.toBeInstanceOf(Error);
  });
});
