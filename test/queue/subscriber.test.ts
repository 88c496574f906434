import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { StepJobContext } from '../../src/agents/orchestrator/index.js';
import { EventBus } from '../../src/core/event-bus.js';
import type { TandemEvent } from '../../src/core/events.js';
import { RemoteStep, RemoteSteps } from '../../src/queue/remote-step.js';
import { ChannelSubscriber } from '../../src/queue/subscriber.js';
import { FakeClock } from '../../src/testing/fake-clock.js';

/** A subscriber connection that records SUBSCRIBE / UNSUBSCRIBE and delivers what the test sends. */
function fakeClient() {
  const client = Object.assign(new EventEmitter(), {
    subscribed: [] as string[],
    unsubscribed: [] as string[],
    async subscribe(name: string) {
      client.subscribed.push(name);
      return 1;
    },
    async unsubscribe(name: string) {
      client.unsubscribed.push(name);
      return 0;
    },
  });
  return client;
}

describe('queue: the dispatching side subscriber', () => {
  it('subscribes to a run channel once for all its steps and keeps it while idle', async () => {
    const client = fakeClient();
    const received: string[] = [];
    const subscriber = new ChannelSubscriber(client as unknown as Redis, (_channel, text) =>
      received.push(text),
    );

    const first = await subscriber.hold('run-1');
    const second = await subscriber.hold('run-1');
    first();
    second();
    const third = await subscriber.hold('run-1');
    client.emit('message', 'run-1', 'packet');
    third();

    expect(client.subscribed).toEqual(['run-1']);
    expect(client.unsubscribed).toEqual([]);
    expect(received).toEqual(['packet']);
  });

  it('unsubscribes the channel idle longest once more than 64 are idle, and ignores its messages', async () => {
    const client = fakeClient();
    const received: string[] = [];
    const subscriber = new ChannelSubscriber(client as unknown as Redis, (channel) => received.push(channel));

    for (let i = 0; i <= 64; i++) (await subscriber.hold(`run-${i}`))();
    client.emit('message', 'run-0', 'late packet');
    client.emit('message', 'run-64', 'packet');

    expect(client.unsubscribed).toEqual(['run-0']);
    expect(received).toEqual(['run-64']);
  });

  it('forgets a channel whose SUBSCRIBE failed, so the next hold tries again', async () => {
    const client = fakeClient();
    const subscribe = client.subscribe;
    client.subscribe = async () => {
      throw new Error('connection lost');
    };
    const subscriber = new ChannelSubscriber(client as unknown as Redis, () => undefined);

    await expect(subscriber.hold('run-1')).rejects.toThrow('connection lost');
    client.subscribe = subscribe;
    await subscriber.hold('run-1');

    expect(client.subscribed).toEqual(['run-1']);
  });
});

describe('queue: routing packets to dispatches', () => {
  const context = (events: TandemEvent[]): StepJobContext => {
    const bus = new EventBus({ runId: 'r1', clock: new FakeClock() });
    bus.on('*', (event) => events.push(event));
    return { signal: new AbortController().signal, emit: bus };
  };
  const packet = (job: string, ...deltas: string[]) =>
    JSON.stringify({
      job,
      messages: deltas.map((delta) => ({ kind: 'event', type: 'token', payload: { delta } })),
    });

  it('gives each dispatch the messages of its own job only, in order, and drops what is not a packet', () => {
    const remotes = new RemoteSteps();
    const one: TandemEvent[] = [];
    const two: TandemEvent[] = [];
    remotes.add('r1/s1/0', new RemoteStep(context(one)));
    const release = remotes.add('r1/s2/0', new RemoteStep(context(two)));

    remotes.deliver(packet('r1/s1/0', 'a', 'b'));
    remotes.deliver(packet('r1/s2/0', 'c'));
    remotes.deliver('not json');
    remotes.deliver(JSON.stringify({ job: 'r1/s1/0' }));
    release();
    remotes.deliver(packet('r1/s2/0', 'd'));

    const deltas = (events: TandemEvent[]) => events.map((e) => (e.type === 'token' ? e.delta : e.type));
    expect(deltas(one)).toEqual(['a', 'b']);
    expect(deltas(two)).toEqual(['c']);
  });
});
