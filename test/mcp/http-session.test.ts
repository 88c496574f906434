/**
 * Streamable HTTP sessions against `server-everything` run as a child process
 * on a loopback port: `close()` ends the session with DELETE, so the server
 * frees it at once. The server logs every request it gets; the test counts them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectMcp } from '../../src/mcp/index.js';
import { directContext, everythingScript } from './support.js';

let server: ChildProcess;
let url: string;
let log = '';

/** A port the OS just gave out and took back: free for the child to bind. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  const port = await freePort();
  server = spawn(process.execPath, [everythingScript, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('exit', (code) => reject(new Error(`server-everything exited with ${code}`)));
    server.stderr!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening on port')) resolve();
    });
  });
  url = `http://127.0.0.1:${port}/mcp`;
});

afterAll(async () => {
  if (server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
});

function count(pattern: RegExp): number {
  return log.match(new RegExp(pattern, 'g'))?.length ?? 0;
}

describe('mcp Streamable HTTP sessions', () => {
  it('close() ends the session with DELETE, and the server frees it', async () => {
    const connection = await connectMcp({ url });
    const echo = connection.tools.find((t) => t.mcpName === 'echo')!;
    expect(await echo.execute({ message: 'hi' }, directContext().ctx)).toBe('Echo: hi');
    const session = /Session initialized with ID: (\S+)/.exec(log)?.[1];
    expect(session).toBeDefined();
    expect(count(/Received MCP POST request/)).toBeGreaterThanOrEqual(3);
    expect(count(/Received session termination request/)).toBe(0);
    await connection.close();
    await connection.close();
    await vi.waitFor(() => expect(log).toContain(`Transport closed for session ${session}`));
    expect(count(/Received session termination request/)).toBe(1);
    expect(log).toContain(`Received session termination request for session ${session}`);
  });
});
