import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toBase64 } from '../../src/core/media.js';
import type { Message } from '../../src/core/messages.js';
import { FileCheckpointStore } from '../../src/fs/file-checkpoint-store.js';
import { MemoryCheckpointStore } from '../../src/state/checkpoint-store.js';
import { parseRunState, type RunState } from '../../src/state/run-state.js';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 253, 254, 255]);
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

function stateWithImages(): RunState {
  const base = JSON.parse(readFileSync(new URL('./fixtures/run-state-v1.json', import.meta.url), 'utf8'));
  const messages: Message[] = [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is on this screenshot?' },
        { type: 'image', mediaType: 'image/png', data: PNG, filename: 'screen.png' },
      ],
    },
    { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'zoom', arguments: '{}' }] },
    {
      role: 'tool',
      content: [
        {
          type: 'tool_result',
          toolCallId: 'c1',
          toolName: 'zoom',
          content: 'Zoomed.',
          attachments: [{ type: 'image', mediaType: 'image/png', data: Buffer.from(PNG) }],
        },
      ],
    },
  ];
  return { ...base, conversations: { s2: { mode: 'normal', messages } } };
}

describe('run states holding images', () => {
  it.each([
    ['memory', async () => new MemoryCheckpointStore<RunState>()],
    [
      'file',
      async () => {
        const dir = await mkdtemp(join(tmpdir(), 'tandem-media-'));
        dirs.push(dir);
        return new FileCheckpointStore<RunState>({ dir });
      },
    ],
  ])('save the bytes as base64 in plain JSON and restore them as is (%s store)', async (_, make) => {
    const store = await make();
    await store.save('run_1', stateWithImages());
    const loaded = parseRunState(await store.load('run_1'));
    const [first, , tool] = loaded.conversations.s2!.messages;
    expect(first).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'What is on this screenshot?' },
        { type: 'image', mediaType: 'image/png', data: toBase64(PNG), filename: 'screen.png' },
      ],
    });
    expect(tool).toMatchObject({ content: [{ attachments: [{ data: toBase64(PNG) }] }] });
    // Restored as saved: a second round trip changes nothing.
    await store.save('run_1', loaded);
    expect(parseRunState(await store.load('run_1'))).toEqual(loaded);
  });
});
