import { describe, expect, it } from 'vitest';
import { attachNote } from '../../src/agents/executor/request-notes.js';
import type { Message } from '../../src/core/messages.js';

describe('attachNote', () => {
  it('appends the note to the last tool result for one call and restores the original message', () => {
    const tool: Message = {
      role: 'tool',
      content: [{ type: 'tool_result', toolCallId: 'c1', toolName: 'f', content: 'result' }],
    };
    const messages: Message[] = [{ role: 'user', content: 'q' }, tool];
    const restore = attachNote(messages, { text: 'NOTE' });
    expect(messages[1]).toEqual({
      role: 'tool',
      content: [{ type: 'tool_result', toolCallId: 'c1', toolName: 'f', content: 'result\n\nNOTE' }],
    });
    expect(tool.content[0]!.content).toBe('result');
    restore();
    expect(messages[1]).toBe(tool);
  });

  it('adds a trailing user message when the conversation does not end with tool results, and removes it after', () => {
    const messages: Message[] = [{ role: 'user', content: 'q' }];
    const restore = attachNote(messages, { text: 'NOTE' });
    expect(messages).toEqual([
      { role: 'user', content: 'q' },
      { role: 'user', content: 'NOTE' },
    ]);
    restore();
    expect(messages).toEqual([{ role: 'user', content: 'q' }]);
  });

  it('does not undo a message the executor appended meanwhile', () => {
    const messages: Message[] = [{ role: 'user', content: 'q' }];
    const restore = attachNote(messages, { text: 'NOTE' });
    messages.push({ role: 'assistant', content: [{ type: 'text', text: 'a' }] });
    restore();
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});
