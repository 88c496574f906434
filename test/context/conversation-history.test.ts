import { describe, expect, it } from 'vitest';
import { ConversationHistory } from '../../src/context/conversation-history.js';
import { assistant, call, result, user } from './helpers.js';

describe('ConversationHistory', () => {
  it('keeps the last 50 messages by default', () => {
    const history = new ConversationHistory();
    for (let i = 0; i < 60; i++) history.add(user(`m${i}`));
    expect(history.size).toBe(50);
    expect(history.messages()[0]).toEqual(user('m10'));
  });

  it('returns the last 10 messages by default', () => {
    const history = new ConversationHistory();
    for (let i = 0; i < 20; i++) history.add(user(`m${i}`));
    expect(history.recent().map((m) => m.content)).toEqual(
      Array.from({ length: 10 }, (_, i) => `m${i + 10}`),
    );
  });

  it('widens the recent window to include the call of a leading tool result', () => {
    const history = new ConversationHistory({ recentCount: 2 });
    history.add(user('q'), call('c1'), result('c1', 'out'), assistant('done'));
    expect(history.recent()).toEqual([call('c1'), result('c1', 'out'), assistant('done')]);
  });

  it('drops results whose call was trimmed away', () => {
    const history = new ConversationHistory({ maxMessages: 3 });
    history.add(user('q'), call('c1'), result('c1', 'out'), assistant('a'), user('next'));
    expect(history.messages()).toEqual([assistant('a'), user('next')]);
  });

  it('renders the recent conversation as ROLE: content blocks', () => {
    const history = new ConversationHistory();
    history.add(user('Review rateLimiter.js'), call('c1', 'read_file', '{"path":"rateLimiter.js"}'));
    history.add(result('c1', 'module.exports = {}', 'read_file'), assistant('It exports nothing.'));
    expect(history.buildContext()).toBe(
      [
        '**Recent Conversation:**\nUSER: Review rateLimiter.js',
        'ASSISTANT: [called read_file({"path":"rateLimiter.js"})]',
        'TOOL: [read_file result] module.exports = {}',
        'ASSISTANT: It exports nothing.',
      ].join('\n\n'),
    );
  });

  it('renders nothing for an empty history', () => {
    expect(new ConversationHistory().buildContext()).toBe('');
  });

  it('clear() forgets everything', () => {
    const history = new ConversationHistory();
    history.add(user('a'));
    history.clear();
    expect(history.size).toBe(0);
    expect(history.recent()).toEqual([]);
  });

  it('does not expose its log to mutation', () => {
    const history = new ConversationHistory();
    history.add(user('a'));
    history.messages().push(user('b'));
    expect(history.size).toBe(1);
  });
});
