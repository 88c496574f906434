/** A run recorder copies a conversation only when something keeps it: a store, or a snapshot. */
import { describe, expect, it, vi } from 'vitest';
import { RunRecorder } from '../../src/agents/orchestrator/run-recorder.js';
import { EventBus } from '../../src/core/event-bus.js';
import type { Message } from '../../src/core/messages.js';
import { emptyUsage } from '../../src/core/usage.js';
import { MemoryCheckpointStore } from '../../src/state/checkpoint-store.js';
import { FakeClock } from '../../src/testing/fake-clock.js';

function recorder(store?: MemoryCheckpointStore) {
  const clock = new FakeClock();
  const emit = new EventBus({ runId: 'run_1', clock });
  return new RunRecorder({ store, clock, emit, usage: emptyUsage() }, { runId: 'run_1', task: 'task' });
}

function conversation(): Message[] {
  return [
    { role: 'user', content: 'question' },
    { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'add', arguments: '{}' }] },
  ];
}

describe('RunRecorder: conversation checkpoints', () => {
  it('does not copy the messages at a checkpoint without a store', async () => {
    const messages = conversation();
    const slice = vi.spyOn(messages, 'slice');
    const run = recorder();
    await run.conversation('s1', { mode: 'normal', system: 'sys' }, messages);
    await run.conversation('s1', { mode: 'normal', system: 'sys' }, messages);
    expect(slice).not.toHaveBeenCalled();
  });

  it('copies them at once with a store', async () => {
    const messages = conversation();
    const slice = vi.spyOn(messages, 'slice');
    const run = recorder(new MemoryCheckpointStore());
    await run.conversation('s1', { mode: 'normal', system: 'sys' }, messages);
    expect(slice).toHaveBeenCalledTimes(1);
  });

  it('snapshots what was recorded: neither later messages nor a note standing in for the last one', async () => {
    const messages = conversation();
    const run = recorder();
    await run.conversation('s1', { mode: 'enhanced', system: 'sys' }, messages);
    const recorded = structuredClone(messages);
    messages[1] = { role: 'assistant', content: [{ type: 'text', text: 'a note for one call' }] };
    messages.push({ role: 'tool', content: [] });
    expect(run.snapshot().conversations.s1).toEqual({ mode: 'enhanced', system: 'sys', messages: recorded });
  });

  it('forgets a finished conversation', async () => {
    const run = recorder();
    await run.conversation('s1', { mode: 'normal', system: 'sys' }, conversation());
    run.endConversation('s1');
    expect(run.snapshot().conversations).toEqual({});
  });
});
