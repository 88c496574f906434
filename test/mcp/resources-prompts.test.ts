/**
 * Resources and prompts of `server-everything`, a real child process over
 * stdio: listed and read through the connection, browsed by the model
 * through the resource tools, and prompts filled in as tandem messages.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBase64 } from '../../src/core/media.js';
import { type McpConnection, McpToolError } from '../../src/mcp/index.js';
import { directContext, everythingScript, spawnEverything } from './support.js';

const ARCHITECTURE = 'demo://resource/static/document/architecture.md';
const architectureText = readFileSync(join(dirname(everythingScript), 'docs', 'architecture.md'), 'utf8');

let everything: McpConnection;

beforeAll(async () => {
  everything = await spawnEverything({ prefix: 'demo_' });
});

afterAll(async () => {
  await everything?.close();
});

describe('mcp resources', () => {
  it('lists resources and templates, and reads a text resource', async () => {
    const resources = await everything.listResources();
    expect(resources).toContainEqual(
      expect.objectContaining({ uri: ARCHITECTURE, name: 'architecture.md', mimeType: 'text/markdown' }),
    );
    const templates = await everything.listResourceTemplates();
    expect(templates.map((t) => t.uriTemplate)).toContain('demo://resource/dynamic/text/{resourceId}');
    const read = await everything.readResource(ARCHITECTURE);
    expect(read).toMatchObject({ uri: ARCHITECTURE, text: architectureText, attachments: [] });
  });

  it('reads a binary resource as a file part, named in the text by a placeholder', async () => {
    const read = await everything.readResource('demo://resource/dynamic/blob/7');
    expect(read.attachments).toEqual([
      { type: 'file', mediaType: 'text/plain', data: expect.any(String), filename: '7' },
    ]);
    const bytes = new TextDecoder().decode(fromBase64(read.attachments[0]!.data as string));
    expect(bytes).toMatch(/^Resource 7: This is a base64 blob/);
    expect(read.text).toMatch(
      /^\[resource: demo:\/\/resource\/dynamic\/blob\/7\]\n\[file: text\/plain, 7, \d+ bytes\]$/,
    );
  });

  it('rejects an unknown resource with McpToolError', async () => {
    await expect(everything.readResource('demo://nowhere')).rejects.toBeInstanceOf(McpToolError);
  });

  it('gives the model list_resources and read_resource, prefixed, read-only', async () => {
    const [list, read] = everything.resourceTools();
    expect([list!.name, read!.name]).toEqual(['demo_list_resources', 'demo_read_resource']);
    expect([list!.risk, read!.risk, read!.parallelSafe]).toEqual(['safe', 'safe', true]);
    const listing = (await list!.execute({}, directContext().ctx)) as string;
    expect(listing).toContain(`${ARCHITECTURE} — architecture.md (text/markdown)`);
    expect(listing).toContain('Templates (fill in the {placeholders}):\ndemo://resource/dynamic/');
    expect(await read!.execute({ uri: ARCHITECTURE }, directContext().ctx)).toBe(architectureText);
  });
});

describe('mcp prompts', () => {
  it('lists prompts with their arguments', async () => {
    const prompts = await everything.listPrompts();
    const args = prompts.find((p) => p.name === 'args-prompt')!;
    expect(args.arguments).toEqual([
      expect.objectContaining({ name: 'city', required: true }),
      expect.objectContaining({ name: 'state', required: false }),
    ]);
  });

  it('fills in a prompt as tandem messages', async () => {
    const prompt = await everything.getPrompt('args-prompt', { city: 'Lyon' });
    expect(prompt.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: "What's weather in Lyon?" }] },
    ]);
  });

  it('keeps an embedded binary resource of a prompt as a file part', async () => {
    const prompt = await everything.getPrompt('resource-prompt', { resourceType: 'Blob', resourceId: '3' });
    const [intro, resource] = prompt.messages;
    expect(intro).toMatchObject({ role: 'user', content: [{ type: 'text' }] });
    expect(resource).toEqual({
      role: 'user',
      content: [{ type: 'file', mediaType: 'text/plain', data: expect.any(String), filename: '3' }],
    });
  });

  it('rejects a prompt missing a required argument with McpToolError', async () => {
    await expect(everything.getPrompt('args-prompt')).rejects.toMatchObject({ name: 'McpToolError' });
  });
});
