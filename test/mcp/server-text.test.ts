/**
 * What the model sees of a tool result from the reference servers over stdio:
 * the text the server sent, unescaped; `structuredContent` stays data, on
 * `call()`'s `object`. Before, a file read reached the model as
 * `{"content":"…"}` with its text JSON-escaped.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpConnection } from '../../src/mcp/index.js';
import { directContext, spawnEverything, spawnFilesystem } from './support.js';

const FILE_TEXT = 'First line\n  "quoted" and \\ backslash\nlast line, ünïcode\n';

let dir: string;
let filesystem: McpConnection;
let everything: McpConnection;

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-mcp-')));
  writeFileSync(join(dir, 'notes.txt'), FILE_TEXT);
  [filesystem, everything] = await Promise.all([spawnFilesystem(dir), spawnEverything()]);
});

afterAll(async () => {
  await Promise.all([filesystem?.close(), everything?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

describe('mcp result content', () => {
  it('gives the model a file read as the file text, with structuredContent as the object', async () => {
    const read = filesystem.tools.find((t) => t.mcpName === 'read_text_file')!;
    const path = join(dir, 'notes.txt');
    expect(await read.execute({ path }, directContext().ctx)).toBe(FILE_TEXT);
    const result = await read.call({ path }, directContext().ctx);
    expect(result).toMatchObject({ text: FILE_TEXT, isError: false, object: { content: FILE_TEXT } });
    expect(result.content).toEqual([{ type: 'text', text: FILE_TEXT }]);
  });

  it("keeps server-everything's structured weather as the object beside the text it sent", async () => {
    const weather = everything.tools.find((t) => t.mcpName === 'get-structured-content')!;
    expect(weather.outputSchema).toMatchObject({ type: 'object' });
    const result = await weather.call({ location: 'Chicago' }, directContext().ctx);
    const object = { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 };
    expect(result.object).toEqual(object);
    expect(result.text).toBe(JSON.stringify(object));
  });
});
