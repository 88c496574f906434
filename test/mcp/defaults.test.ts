/**
 * MCP tool parameters are the server's JSON Schema (they were zod, which
 * filled in `default`s): the defaults of arguments a model leaves out are
 * filled in before the call, at the top level and in nested objects, so a
 * server that reads its arguments as they come (a low-level SDK `Server`)
 * still gets them.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type Tool as SdkTool,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { Executor } from '../../src/index.js';
import { mcpTools } from '../../src/mcp/index.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { directContext } from './support.js';

const BOOK: SdkTool = {
  name: 'book',
  description: 'Books a room',
  inputSchema: {
    type: 'object',
    properties: {
      city: { type: 'string' },
      nights: { type: 'integer', default: 2 },
      options: {
        type: 'object',
        properties: {
          breakfast: { type: 'boolean', default: false },
          room: { type: 'string', default: 'double' },
        },
        default: {},
      },
      guests: { type: 'array', items: { $ref: '#/$defs/guest' } },
    },
    required: ['city'],
    $defs: { guest: { type: 'object', properties: { age: { type: 'integer', default: 30 } } } },
  },
};

/** A low-level SDK server listing `book` and answering with the arguments it received, as JSON. */
async function echoServer() {
  const server = new Server({ name: 'echo', version: '1.0.0' }, { capabilities: { tools: {} } });
  const received: unknown[] = [];
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [BOOK] }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    received.push(request.params.arguments);
    return { content: [{ type: 'text', text: JSON.stringify(request.params.arguments) }] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return { client, received };
}

describe('MCP tool argument defaults', () => {
  it('fills top-level and nested defaults into the arguments a run sends, and shows them in tool_call', async () => {
    const { client, received } = await echoServer();
    const tools = await mcpTools(client);
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'book', args: { city: 'Oslo', guests: [{}, { age: 7 }] } }] },
      { text: 'booked' },
    ]);
    const run = new Executor({ model, tools, runtime: testRuntime() }).run('book Oslo');
    const calls: unknown[] = [];
    run.on('tool_call', (event) => calls.push(event.args));
    expect((await run.result).output).toBe('booked');
    const expected = {
      city: 'Oslo',
      nights: 2,
      options: { breakfast: false, room: 'double' },
      guests: [{ age: 30 }, { age: 7 }],
    };
    expect(received).toEqual([expected]);
    expect(calls).toEqual([expected]);
  });

  it('keeps what the model sent over a default, and fills the rest of a nested object it sent', async () => {
    const { client, received } = await echoServer();
    const [book] = await mcpTools(client);
    await book!.execute({ city: 'Rome', nights: 5, options: { room: 'single' } }, directContext().ctx);
    expect(received).toEqual([{ city: 'Rome', nights: 5, options: { breakfast: false, room: 'single' } }]);
  });

  it('fills defaults with validation off too', async () => {
    const { client, received } = await echoServer();
    const [book] = await mcpTools(client, { validate: false });
    await book!.call({ city: 'Lima' }, directContext().ctx);
    expect(received).toEqual([{ city: 'Lima', nights: 2, options: { breakfast: false, room: 'double' } }]);
  });

  it('gives every call its own copy of a default', async () => {
    const { client, received } = await echoServer();
    const [book] = await mcpTools(client);
    const first = (await book!.parameters['~standard'].validate({ city: 'A' })) as {
      value: { options: object };
    };
    (first.value.options as { room: string }).room = 'changed';
    await book!.call({ city: 'B' }, directContext().ctx);
    expect(received).toEqual([{ city: 'B', nights: 2, options: { breakfast: false, room: 'double' } }]);
  });
});
