import { describe, expect, it } from 'vitest';
import type { TandemEvent } from '../../src/core/events.js';
import { toBase64 } from '../../src/core/media.js';
import { toolOutputOf } from '../../src/tools/output.js';
import { prepareToolCalls } from '../../src/tools/prepare.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { type RunToolsContext, type ToolOutputFilter, ToolRunner } from '../../src/tools/runner.js';
import type { Tool } from '../../src/tools/types.js';
import { collectingBus, simpleTool, toolCall } from './helpers.js';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const image = { type: 'image' as const, mediaType: 'image/png', data: PNG, filename: 'shot.png' };
const pdf = { type: 'file' as const, mediaType: 'application/pdf', url: 'https://example.com/a.pdf' };

function setup(tools: Tool[], options: { filterOutput?: ToolOutputFilter; maxOutputChars?: number } = {}) {
  const { bus, events } = collectingBus();
  const registry = new ToolRegistry(tools);
  const runner = new ToolRunner({ maxOutputChars: options.maxOutputChars });
  const ctx: RunToolsContext = {
    signal: new AbortController().signal,
    emit: bus,
    runId: bus.runId,
    filterOutput: options.filterOutput,
  };
  const run = async (name: string) =>
    runner.run((await prepareToolCalls(registry, [toolCall(name, {}, 'c1')])).calls, ctx);
  return { events, run };
}

function resultEvent(events: TandemEvent[]) {
  return events.find((e) => e.type === 'tool_result') as TandemEvent<'tool_result'>;
}

describe('tool output with images and files', () => {
  it('reads { content, attachments }, one media part, and a list of text and media parts', () => {
    const stored = { ...image, data: toBase64(PNG) };
    expect(toolOutputOf({ content: 'Here.', attachments: [image, pdf] })).toEqual({
      text: 'Here.',
      attachments: [stored, pdf],
    });
    expect(toolOutputOf(image)).toEqual({ text: '', attachments: [stored] });
    expect(toolOutputOf([{ type: 'text', text: 'a' }, pdf, { type: 'text', text: 'b' }])).toEqual({
      text: 'a\nb',
      attachments: [pdf],
    });
  });

  it('keeps objects that only share a type name, such as a file listing, as JSON text', () => {
    const listing = [{ type: 'file', path: 'a.txt', size: 3 }];
    expect(toolOutputOf(listing)).toEqual({ text: JSON.stringify(listing) });
    expect(toolOutputOf({ content: 'x', attachments: [], extra: 1 })).toEqual({
      text: '{"content":"x","attachments":[],"extra":1}',
    });
  });

  it('names an invalid media part instead of sending it', () => {
    const read = toolOutputOf({ attachments: [{ type: 'image', mediaType: 'png', data: 'AAAA' }] });
    expect(read).toEqual({
      invalid: expect.stringContaining('invalid image (attachment 0): mediaType must be'),
    });
  });

  it('gives the outcome the attachments, and the tool_result event their sizes and media types, not the bytes', async () => {
    const { run, events } = setup([
      simpleTool('shot', () => ({ content: 'Captured.', attachments: [image] })),
    ]);
    const [outcome] = await run('shot');
    expect(outcome).toMatchObject({ content: 'Captured.', isError: false });
    expect(outcome!.attachments).toEqual([{ ...image, data: toBase64(PNG) }]);
    const event = resultEvent(events);
    expect(event.attachments).toEqual([
      { type: 'image', mediaType: 'image/png', bytes: 11, filename: 'shot.png' },
    ]);
    expect(JSON.stringify(events)).not.toContain(toBase64(PNG));
  });

  it('keeps the attachments through an output filter, and truncates only the text', async () => {
    const long = `${'x'.repeat(100)}EVIL`;
    const { run } = setup([simpleTool('shot', async () => ({ content: long, attachments: [pdf] }))], {
      filterOutput: (output) => output.replace('EVIL', ''),
      maxOutputChars: 50,
    });
    const [outcome] = await run('shot');
    expect(outcome).toMatchObject({ filtered: true, truncated: true, attachments: [pdf] });
  });

  it('answers a tool that returns an invalid part with an error result', async () => {
    const { run, events } = setup([
      simpleTool('shot', () => ({ ...image, url: 'https://example.com/x.png' })),
    ]);
    const [outcome] = await run('shot');
    expect(outcome).toMatchObject({ isError: true });
    expect(outcome!.content).toContain('exactly one of data and url');
    expect(outcome!.attachments).toBeUndefined();
    expect(resultEvent(events).attachments).toBeUndefined();
  });
});
