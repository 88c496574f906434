/**
 * Planner and executor on two different models (seed 000's two-model
 * architecture): the planner plans and rescues, the executor does the work.
 * `usage` events say which model spent what.
 *
 *   npx tsx examples/two-models.ts
 *
 * Offline on scripted models; with OPENAI_API_KEY set it uses gpt-4.1 as the
 * planner and gpt-4.1-mini as the executor.
 */
import { type ChatModel, Orchestrator } from 'tandem-agents';
import { createOpenAI } from 'tandem-agents/openai';
import { ScriptedModel } from 'tandem-agents/testing';

function models(): { planner: ChatModel; executor: ChatModel } {
  if (process.env.OPENAI_API_KEY) {
    const openai = createOpenAI();
    return { planner: openai('gpt-4.1'), executor: openai('gpt-4.1-mini') };
  }
  const u = (input: number, output: number) => ({ usage: { inputTokens: input, outputTokens: output } });
  return {
    planner: new ScriptedModel(
      [
        { text: '{"needsPlan": true, "reasoning": "outline then draft"}', ...u(120, 12) },
        {
          text: JSON.stringify({
            title: 'Haiku pair',
            summary: 'Write two haiku, the second answering the first.',
            steps: [
              { id: 'first', description: 'Write a haiku about autumn' },
              { id: 'second', description: 'Write a haiku answering the first', dependsOn: ['first'] },
            ],
          }),
          ...u(300, 90),
        },
      ],
      { id: 'scripted:big-planner' },
    ),
    executor: new ScriptedModel(
      [
        {
          text: 'Red leaves drift and fall / the river carries their names / far past the mill wheel',
          ...u(200, 25),
        },
        {
          text: 'The mill wheel answers / turning the names into light / spring will read them back',
          ...u(260, 25),
        },
        { text: 'PASS: both haiku written', ...u(90, 6) },
        { text: 'Autumn:\nRed leaves drift and fall…\n\nReply:\nThe mill wheel answers…', ...u(150, 30) },
      ],
      { id: 'scripted:small-executor' },
    ),
  };
}

const { planner, executor } = models();
const run = new Orchestrator({ models: { planner, executor }, planning: { classify: 'llm' } }).run(
  'Write two haiku, the second replying to the first.',
);
const byModel = new Map<string, number>();
run.on('usage', (e) =>
  byModel.set(e.model, (byModel.get(e.model) ?? 0) + e.usage.inputTokens + e.usage.outputTokens),
);
const result = await run.result;
console.log(result.output);
for (const [model, tokens] of byModel) console.log(`${model}: ${tokens} tokens`);
console.log(`total: ${result.usage.inputTokens + result.usage.outputTokens} tokens`);
