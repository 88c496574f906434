import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EventBus } from '../../src/core/event-bus.js';
import { toBase64 } from '../../src/core/media.js';
import { LocalProcessSandbox } from '../../src/sandbox/local.js';
import { createSandboxTools, type SandboxToolsOptions } from '../../src/sandbox/tools.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import type { Tool, ToolContext } from '../../src/tools/types.js';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0xff, 0xfe]);
const PDF = new TextEncoder().encode('%PDF-1.4\n<</Type /Page>>\n%%EOF\n');

describe('sandbox read_file of binary files', () => {
  let sandbox: LocalProcessSandbox;
  beforeEach(async () => {
    sandbox = await LocalProcessSandbox.create();
  });
  afterEach(() => sandbox.dispose());

  function readFile(options?: SandboxToolsOptions): (path: string) => Promise<unknown> {
    const tool = createSandboxTools(sandbox, options).find((t) => t.name === 'read_file') as Tool;
    const bus = new EventBus({ runId: 'run_1', clock: new FakeClock() });
    const ctx: ToolContext = {
      signal: new AbortController().signal,
      runId: 'run_1',
      toolCallId: 'c1',
      emit: bus,
    };
    return (path) => Promise.resolve(tool.execute({ path }, ctx));
  }

  it('returns an image as an image attachment, known by its first bytes', async () => {
    await sandbox.writeFile('out/chart.dat', PNG);
    expect(await readFile()('out/chart.dat')).toEqual({
      content: 'out/chart.dat: image/png, 14 bytes (attached)',
      attachments: [{ type: 'image', mediaType: 'image/png', data: toBase64(PNG), filename: 'chart.dat' }],
    });
  });

  it('returns a PDF as a file attachment, and binary media by extension when the bytes do not say', async () => {
    await sandbox.writeFile('report.pdf', PDF);
    await sandbox.writeFile('voice.mp3', Uint8Array.from([0x00, 0xff, 0x10]));
    expect(await readFile()('report.pdf')).toMatchObject({
      attachments: [{ type: 'file', mediaType: 'application/pdf', filename: 'report.pdf' }],
    });
    expect(await readFile()('voice.mp3')).toMatchObject({
      attachments: [{ type: 'file', mediaType: 'audio/mpeg' }],
    });
  });

  it('still returns text files as text', async () => {
    await sandbox.writeFile('notes.md', '# héllo');
    expect(await readFile()('notes.md')).toBe('# héllo');
  });

  it('says a binary file of no known media type cannot be shown', async () => {
    await sandbox.writeFile('blob.bin', Uint8Array.from([0, 1, 2, 0xff]));
    expect(await readFile()('blob.bin')).toBe(
      'blob.bin is a binary file (4 bytes) that cannot be shown; inspect it with code instead.',
    );
  });

  it('refuses an attachment over the size cap with a typed error', async () => {
    await sandbox.writeFile('big.png', PNG);
    await expect(readFile({ maxAttachmentBytes: 10 })('big.png')).rejects.toMatchObject({
      name: 'SandboxError',
      kind: 'too_large',
    });
  });
});
