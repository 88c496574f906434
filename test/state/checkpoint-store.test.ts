import { describe, expect, it } from 'vitest';
import {
  decodeCheckpoint,
  encodeCheckpoint,
  MemoryCheckpointStore,
} from '../../src/state/checkpoint-store.js';
import { checkpointStoreContract } from './checkpoint-contract.js';

checkpointStoreContract('MemoryCheckpointStore', () => new MemoryCheckpointStore());

describe('checkpoint envelope', () => {
  it('wraps the state with a format tag and the run id', () => {
    expect(JSON.parse(encodeCheckpoint('r', { a: 1 }))).toEqual({
      format: 'tandem-checkpoint/1',
      runId: 'r',
      state: { a: 1 },
    });
  });

  it.each([
    ['not JSON', '{oops', 'corrupt'],
    ['no format', '{"state":1}', 'corrupt'],
    ['another format', '{"format":"tandem-checkpoint/9","runId":"r","state":1}', 'unsupported_format'],
    ['another run', '{"format":"tandem-checkpoint/1","runId":"other","state":1}', 'corrupt'],
  ])('reports %s as %s', (_name, text, kind) => {
    expect(() => decodeCheckpoint('r', text)).toThrow(expect.objectContaining({ kind }));
  });
});
