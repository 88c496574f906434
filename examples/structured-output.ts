/**
 * A screenshot and a PDF in, a zod-typed object out, streamed as it is
 * written: an Executor with an `output` schema checks a UI screenshot against
 * its spec.
 *
 *   npx tsx examples/structured-output.ts
 *
 * Offline on a scripted model. With OPENAI_API_KEY (OPENAI_MODEL), else
 * ANTHROPIC_API_KEY (ANTHROPIC_MODEL), else GEMINI_API_KEY / GOOGLE_API_KEY
 * (GEMINI_MODEL) set, the same run goes to that provider, in its native
 * structured-output mode.
 */
import { readFile } from 'node:fs/promises';
import { type ChatModel, Executor, filePart, imagePart } from 'tandem-agents';
import { createAnthropic } from 'tandem-agents/anthropic';
import { createGemini } from 'tandem-agents/gemini';
import { createOpenAI } from 'tandem-agents/openai';
import { ScriptedModel } from 'tandem-agents/testing';
import { z } from 'zod';

const review = z.object({
  component: z.string().describe('The UI element the spec is about'),
  matchesSpec: z.boolean(),
  differences: z.array(z.string()).describe('Each way the screenshot departs from the spec'),
});

/** A real provider when a key is set, else a scripted model that streams its answer a few characters at a time. */
function model(): ChatModel {
  const env = process.env;
  if (env.OPENAI_API_KEY) return createOpenAI()(env.OPENAI_MODEL ?? 'gpt-4o-mini');
  if (env.ANTHROPIC_API_KEY) return createAnthropic()(env.ANTHROPIC_MODEL ?? 'claude-sonnet-4-5');
  if (env.GEMINI_API_KEY || env.GOOGLE_API_KEY) return createGemini()(env.GEMINI_MODEL ?? 'gemini-2.5-flash');
  const answer = {
    component: 'Save button',
    matchesSpec: false,
    differences: ['The button is red, the spec asks for green (#2E7D32)', 'The button has no "Save" label'],
  };
  return new ScriptedModel([{ text: JSON.stringify(answer) }], {
    chunking: 'chars',
    info: { structuredOutput: 'json_schema', inputMediaTypes: ['image/*', 'application/pdf'] },
  });
}

const support = new URL('./support/', import.meta.url);
const [screenshot, spec] = await Promise.all([
  readFile(new URL('screenshot.png', support)),
  readFile(new URL('spec.pdf', support)),
]);

const executor = new Executor({
  model: model(),
  instructions: 'You review UI screenshots against their written spec.',
  output: review,
});
const run = executor.run([
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Does this screenshot match the spec?' },
      imagePart(screenshot, 'image/png', { filename: 'screenshot.png' }),
      filePart(spec, 'application/pdf', { filename: 'spec.pdf' }),
    ],
  },
]);

// Partial objects are not validated yet: read them defensively.
let shown = 0;
let listed = 0;
run.on('partial_object', ({ object }) => {
  shown++;
  const differences = (object as { differences?: unknown[] }).differences ?? [];
  if (differences.length > listed)
    console.log(`partial: ${(listed = differences.length)} difference(s) so far`);
});

const { object } = await run.result;
// `object` is typed from the schema: { component: string; matchesSpec: boolean; differences: string[] }
console.log(`${shown} partial object(s) streamed`);
console.log(`${object.component}: matches spec = ${object.matchesSpec}`);
for (const difference of object.differences) console.log(`  - ${difference}`);
