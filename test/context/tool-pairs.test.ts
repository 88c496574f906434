import { describe, expect, it } from 'vitest';
import { MISSING_RESULT_STUB, sanitizeToolPairs } from '../../src/context/tool-pairs.js';
import type { AssistantMessage, Message } from '../../src/core/messages.js';
import { assistant, call, deepFreeze, result, user } from './helpers.js';

describe('sanitizeToolPairs', () => {
  it('returns the same array when every call has its result', () => {
    const messages = deepFreeze([user('q'), call('c1'), result('c1', 'r'), assistant('a')]);
    expect(sanitizeToolPairs(messages)).toBe(messages);
  });

  it('drops results whose call is missing', () => {
    const messages = deepFreeze([user('q'), result('c0', 'orphan'), assistant('a')]);
    expect(sanitizeToolPairs(messages)).toEqual([user('q'), assistant('a')]);
  });

  it('stubs a result for a call without one, right after the call', () => {
    const messages = deepFreeze([user('q'), call('c1'), user('next')]);
    expect(sanitizeToolPairs(messages)).toEqual([
      user('q'),
      call('c1'),
      {
        role: 'tool',
        content: [{ type: 'tool_result', toolCallId: 'c1', toolName: 'read', content: MISSING_RESULT_STUB }],
      },
      user('next'),
    ]);
  });

  it('keeps matching results of a partly answered batch and stubs the rest', () => {
    const batch: AssistantMessage = {
      role: 'assistant',
      content: [
        { type: 'tool_call', id: 'a', name: 'x', arguments: '{}' },
        { type: 'tool_call', id: 'b', name: 'y', arguments: '{}' },
      ],
    };
    const messages: Message[] = deepFreeze([user('q'), batch, result('a', 'ra', 'x'), result('zz', 'stray')]);
    const out = sanitizeToolPairs(messages);
    expect(out).toEqual([
      user('q'),
      batch,
      {
        role: 'tool',
        content: [
          { type: 'tool_result', toolCallId: 'a', toolName: 'x', content: 'ra' },
          { type: 'tool_result', toolCallId: 'b', toolName: 'y', content: MISSING_RESULT_STUB },
        ],
      },
    ]);
  });

  it('drops a duplicate result for the same call', () => {
    const messages = deepFreeze([call('c1'), result('c1', 'first'), result('c1', 'second')]);
    expect(sanitizeToolPairs(messages)).toEqual([call('c1'), result('c1', 'first')]);
  });
});
