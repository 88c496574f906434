/**
 * A conversation kept on Redis: one run tells the model a name, a second
 * run — a new Executor, as after a restart — continues the same thread, and
 * `deleteResource` forgets the user. Checkpoints, sessions and working memory
 * share one connection (`redisStores`). Needs a Redis server:
 *
 *   REDIS_URL=redis://127.0.0.1:6379 npx tsx examples/redis-sessions.ts
 *
 * Offline (models are scripted), but without REDIS_URL it only explains and exits.
 */

import { Executor, textOf } from 'tandem-agents';
import { redisStores } from 'tandem-agents/redis';
import { ScriptedModel } from 'tandem-agents/testing';

const url = process.env.REDIS_URL;
if (!url) {
  console.log('examples/redis-sessions.ts keeps a conversation on Redis.');
  console.log('Set REDIS_URL (e.g. redis://127.0.0.1:6379) to run it; nothing to do without it.');
  process.exit(0);
}

// A prefix of its own, so the example never touches other keys of your Redis.
const stores = await redisStores({ connection: url, keyPrefix: `tandem-example-${process.pid}:` });
try {
  const session = stores.sessions.session('thread-1', { resourceId: 'user-42' });

  const first = new Executor({ model: new ScriptedModel([{ text: 'Nice to meet you, Ada.' }]) });
  await first.run('I am Ada.', { session }).result;

  // Another executor, as a restarted process would make: its history comes from Redis.
  const model = new ScriptedModel([{ text: 'You are Ada.' }]);
  const second = await new Executor({ model }).run('Who am I?', { session }).result;
  console.log(
    `[run 2] the model saw ${model.requests[0]?.messages.length} messages; answered: ${second.output}`,
  );

  const { items, lastSeq } = await session.load({ limit: 50 });
  for (const item of items) console.log(`  #${item.seq} ${item.message.role}: ${textOf(item.message)}`);
  console.log(
    `thread-1 holds ${lastSeq} items; threads of user-42: ${await stores.sessions.threads('user-42')}`,
  );

  await stores.workingMemory.set('user-42', { name: 'Ada' });
  const report = await stores.deleteResource('user-42');
  const left = await stores.sessions.threads('user-42');
  console.log(`forgot user-42 in ${report.stores} stores; threads left: ${left.length}`);
} finally {
  await stores.close();
}
