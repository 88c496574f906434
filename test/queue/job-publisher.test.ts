import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { QueuePacket } from '../../src/queue/channels.js';
import { JobPublisher, PublishingEmitter } from '../../src/queue/job-publisher.js';

/** A client whose PUBLISHes stay in flight until the test acknowledges them. */
function fakeClient() {
  const sent: Array<{ channel: string; packet: QueuePacket; ack(): void; fail(error: Error): void }> = [];
  const client = {
    publish(channel: string, text: string) {
      return new Promise<number>((resolve, reject) => {
        sent.push({ channel, packet: JSON.parse(text), ack: () => resolve(1), fail: reject });
      });
    },
  };
  return { client: client as unknown as Redis, sent };
}

const turnOver = () => new Promise((resolve) => setImmediate(resolve));
const zero = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 };
const usage = { model: 'm', usage: zero, total: zero };
const kinds = (packet: QueuePacket) => packet.messages.map((m) => (m.kind === 'event' ? m.type : m.kind));

describe('queue: the worker publishing a job', () => {
  it('sends the events of one turn of the event loop as one packet on the run channel, named by job', async () => {
    const { client, sent } = fakeClient();
    const emit = new PublishingEmitter(new JobPublisher(client, 'tandem:queue:events:r1', 'r1/s1/0'), 'r1');

    emit.emit('tool_call', { id: 'c1', name: 'add', args: {} });
    emit.scope({ stepId: 's1' }).emit('token', { delta: 'a' });
    emit.emit('usage', usage);
    expect(sent).toEqual([]);
    await turnOver();

    expect(sent).toHaveLength(1);
    expect(sent[0]?.channel).toBe('tandem:queue:events:r1');
    expect(sent[0]?.packet.job).toBe('r1/s1/0');
    expect(kinds(sent[0]!.packet)).toEqual(['tool_call', 'token', 'usage']);
    expect(sent[0]?.packet.messages[1]).toMatchObject({ tags: { stepId: 's1' } });
  });

  it('holds what comes while a packet is in flight and sends it together once that one is acknowledged', async () => {
    const { client, sent } = fakeClient();
    const publisher = new JobPublisher(client, 'c', 'j');
    const emit = new PublishingEmitter(publisher, 'r');
    emit.emit('token', { delta: '1' });
    await turnOver();

    emit.emit('token', { delta: '2' });
    await turnOver();
    emit.emit('token', { delta: '3' });
    await turnOver();
    expect(sent).toHaveLength(1);

    sent[0]?.ack();
    await turnOver();
    expect(sent).toHaveLength(2);
    expect(sent[1]?.packet.messages).toEqual([
      { kind: 'event', type: 'token', payload: { delta: '2' } },
      { kind: 'event', type: 'token', payload: { delta: '3' } },
    ]);
  });

  it('sends the end marker at once, behind the messages still waiting, and resolves when Redis has it', async () => {
    const { client, sent } = fakeClient();
    const publisher = new JobPublisher(client, 'c', 'j');
    new PublishingEmitter(publisher, 'r').emit('usage', usage);

    let ended = false;
    const end = publisher.end().then(() => {
      ended = true;
    });

    expect(sent.map((s) => kinds(s.packet))).toEqual([['usage', 'end']]);
    await Promise.resolve();
    expect(ended).toBe(false);
    sent[0]?.ack();
    await end;
    expect(ended).toBe(true);
  });

  it('resolves a checkpoint once its packet is acknowledged and rejects it when the PUBLISH fails', async () => {
    const { client, sent } = fakeClient();
    const publisher = new JobPublisher(client, 'c', 'j');
    const conversation = { stepId: 's1' } as unknown as Parameters<JobPublisher['conversation']>[0];

    const first = publisher.conversation(conversation, []);
    await turnOver();
    sent[0]?.ack();
    await expect(first).resolves.toBeUndefined();

    const second = publisher.conversation(conversation, []);
    await turnOver();
    sent[1]?.fail(new Error('connection lost'));
    await expect(second).rejects.toThrow('connection lost');
  });

  it('asks producers to wait once 256 messages are unacknowledged', async () => {
    const { client, sent } = fakeClient();
    const publisher = new JobPublisher(client, 'c', 'j');
    const emit = new PublishingEmitter(publisher, 'r');
    for (let i = 0; i < 255; i++) emit.emit('token', { delta: 'x' });
    expect(emit.backpressure()).toBeUndefined();

    emit.emit('token', { delta: 'x' });
    await turnOver();
    const wait = emit.backpressure();
    expect(wait).toBeInstanceOf(Promise);

    sent[0]?.ack();
    await wait;
    expect(emit.backpressure()).toBeUndefined();
  });
});
