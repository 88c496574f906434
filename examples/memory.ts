/**
 * Long-term memory: an assistant that keeps typed notes about its user
 * (working memory, updated through a tool) and, in a new conversation,
 * recalls what the user said in earlier ones (semantic recall).
 *
 *   npx tsx examples/memory.ts
 *
 * Offline: a scripted model and the deterministic HashEmbedder. With a real
 * model, swap in `createOpenAI()('gpt-4o-mini')` and
 * `createOpenAIEmbedding('text-embedding-3-small')`.
 */
import { deleteResource, Executor, InMemoryMemoryStore, type SystemPart } from 'tandem-agents';
import { HashEmbedder, ScriptedModel } from 'tandem-agents/testing';
import { z } from 'zod';

const profile = z.object({
  name: z.string(),
  diet: z.array(z.string()).describe('Allergies and dietary preferences'),
});

const model = new ScriptedModel([
  // Thread 1: the user introduces themselves; the model saves notes, then answers.
  {
    toolCalls: [
      { name: 'update_working_memory', args: { memory: { name: 'Ada', diet: ['peanut allergy'] } } },
    ],
  },
  { text: 'Nice to meet you, Ada. I will keep your peanut allergy in mind.' },
  // Thread 2, another day: the notes and the earlier message are in the prompt.
  { text: 'Ada, here is a peanut-free Thai curry: coconut milk, tofu, lime, no satay.' },
]);
const store = new InMemoryMemoryStore();
const executor = new Executor({
  model,
  instructions: 'You are a cooking assistant.',
  memory: {
    store,
    working: { schema: profile },
    recall: { embedder: new HashEmbedder(), topK: 3, minScore: 0.2 },
  },
});

const first = executor.run('Hi, I am Ada and I have a peanut allergy.', {
  resourceId: 'ada',
  threadId: 'intro',
});
first.on('memory', (e) => console.log(`[memory] ${e.op}${e.count === undefined ? '' : ` ${e.count}`}`));
console.log('assistant:', (await first.result).output);
console.log('working memory:', JSON.stringify((await store.get('ada'))?.value));

const second = executor.run('Given my allergy, suggest a peanut-free Thai curry.', {
  resourceId: 'ada',
  threadId: 'dinner',
});
second.on('memory', (e) => console.log(`[memory] ${e.op}${e.count === undefined ? '' : ` ${e.count}`}`));
console.log('assistant:', (await second.result).output);

// What the model read: the notes after the instructions, the recalled messages last.
const system = model.requests.at(-1)?.system as SystemPart[];
for (const part of system.slice(1))
  console.log(`--- system part${part.cache ? ' (cached)' : ''}\n${part.text}`);

const report = await deleteResource('ada', [store]);
console.log(
  `forgot ada: ${report.stores} store(s) cleared, notes now ${JSON.stringify(await store.get('ada'))}`,
);
