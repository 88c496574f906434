/** The pure parts of the MCP adapter: result text, argument schemas, error kinds, names. */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { argumentsSchema, fromMcpError, McpToolError, mcpToolName, resultText } from '../../src/mcp/index.js';
import { validateSchema } from '../../src/tools/schema.js';

describe('resultText', () => {
  it('joins text parts and summarises binary and linked content', () => {
    const text = resultText({
      content: [
        { type: 'text', text: 'a' },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        {
          type: 'resource',
          resource: { uri: 'file:///x.bin', mimeType: 'application/octet-stream', blob: 'AAECAw==' },
        },
        { type: 'resource_link', uri: 'file:///y.txt', name: 'y' },
        { type: 'hologram' },
      ],
    });
    expect(text.split('\n')).toEqual([
      'a',
      '[audio: audio/wav, 3 bytes]',
      '[resource: file:///x.bin, application/octet-stream, 4 bytes]',
      '[resource link: file:///y.txt (y)]',
      '[hologram content]',
    ]);
  });

  it('gives the text the server sent, not the structuredContent beside it', () => {
    const text = 'line one\n"quoted"';
    expect(resultText({ content: [{ type: 'text', text }], structuredContent: { content: text } })).toBe(
      text,
    );
  });

  it('gives structuredContent as JSON only when the result has no content', () => {
    expect(resultText({ content: [], structuredContent: { n: 1 } })).toBe('{"n":1}');
  });

  it('gives a 2024-10-07 toolResult as JSON, and no content as empty text', () => {
    expect(resultText({ toolResult: { ok: true } })).toBe('{"ok":true}');
    expect(resultText({ content: [] })).toBe('');
  });
});

describe('argumentsSchema', () => {
  it('validates against the JSON Schema, passing the arguments on with its defaults filled in', async () => {
    const schema = argumentsSchema({
      type: 'object',
      properties: { q: { type: 'string' }, limit: { type: 'integer', default: 10 } },
      required: ['q'],
    });
    expect(await validateSchema(schema, { q: 'x', extra: true })).toEqual({
      success: true,
      data: { q: 'x', extra: true, limit: 10 },
    });
    const bad = await validateSchema(schema, { limit: 1.5 });
    expect(bad.success ? [] : bad.issues.map((i) => i.path.join('.'))).toEqual(['q', 'limit']);
    expect((await validateSchema(schema, 'q')).success).toBe(false);
  });

  it('lets through what it cannot judge, leaving it to the server, but still requires an object', async () => {
    const schema = argumentsSchema({
      type: 'object',
      properties: { a: { $ref: 'https://example.com/a.json' } },
      dependentRequired: { a: ['b'] },
    });
    expect((await validateSchema(schema, { a: 1 })).success).toBe(true);
    expect((await validateSchema(schema, null)).success).toBe(false);
    expect((await validateSchema(schema, [])).success).toBe(false);
  });

  it('still requires an object when the schema does not say type: object', async () => {
    const schema = argumentsSchema({ properties: { a: { type: 'string' } } });
    expect((await validateSchema(schema, 5)).success).toBe(false);
    expect((await validateSchema(schema, [])).success).toBe(false);
    expect((await validateSchema(schema, { a: 'x' })).success).toBe(true);
    expect((await validateSchema(schema, { a: 1 })).success).toBe(false);
  });

  it('with validate false checks only that the arguments are an object', async () => {
    const schema = argumentsSchema({ type: 'object', required: ['a'] }, false);
    expect((await validateSchema(schema, {})).success).toBe(true);
    expect((await validateSchema(schema, 'a')).success).toBe(false);
  });
});

describe('fromMcpError', () => {
  it('maps JSON-RPC codes to kinds and leaves other errors alone', () => {
    expect(fromMcpError('t', new McpError(ErrorCode.RequestTimeout, 'slow'))).toMatchObject({
      kind: 'timeout',
      code: ErrorCode.RequestTimeout,
    });
    expect(fromMcpError('t', new McpError(ErrorCode.ConnectionClosed, 'gone'))).toMatchObject({
      kind: 'connection',
    });
    expect(fromMcpError('t', new McpError(ErrorCode.MethodNotFound, 'no'))).toBeInstanceOf(McpToolError);
    const plain = new Error('plain');
    expect(fromMcpError('t', plain)).toBe(plain);
  });
});

describe('mcpToolName', () => {
  it('is stable, provider-safe and rejects an empty name', () => {
    expect(mcpToolName('a.b/c d', 'p:')).toBe('p_a_b_c_d');
    const long = 'n'.repeat(100);
    expect(mcpToolName(long)).toBe(mcpToolName(long));
    expect(mcpToolName(long)).toHaveLength(64);
    expect(() => mcpToolName('')).toThrow(ConfigError);
  });
});
