/**
 * The main demo: a whole orchestration, offline, printed live from the event
 * stream. decide → a 3-step plan with dependencies → tool calls → one step
 * failing and recovered by the escalation ladder → verify → final answer.
 *
 *   npm run demo
 *   npm run demo -- --viewer     (in the browser, with the live run viewer)
 *
 * With a provider configured the same orchestration runs on it instead of the
 * built-in scripted models: OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL (any
 * OpenAI-compatible server; model from OPENAI_MODEL), else ANTHROPIC_API_KEY
 * (ANTHROPIC_MODEL), else GEMINI_API_KEY / GOOGLE_API_KEY (GEMINI_MODEL).
 */
import { type ChatModel, Orchestrator, type TandemEvent } from 'tandem-agents';
import { createAnthropic } from 'tandem-agents/anthropic';
import { createGemini } from 'tandem-agents/gemini';
import { createOpenAI } from 'tandem-agents/openai';
import { styles } from './support/colors.js';
import { add, lookupPopulation, scriptedModels, TASK } from './support/population-scenario.js';

/** A real provider when one is configured: OpenAI or a compatible server, Anthropic, or Gemini. */
function providerModels(): { planner: ChatModel; executor: ChatModel; verifier: ChatModel } | undefined {
  const env = process.env;
  let model: ChatModel | undefined;
  if (env.OPENAI_API_KEY || env.OPENAI_BASE_URL) {
    const openai = createOpenAI({ apiKey: env.OPENAI_API_KEY, baseURL: env.OPENAI_BASE_URL });
    model = openai(env.OPENAI_MODEL ?? 'gpt-4o-mini');
  } else if (env.ANTHROPIC_API_KEY) {
    model = createAnthropic()(env.ANTHROPIC_MODEL ?? 'claude-sonnet-4-5');
  } else if (env.GEMINI_API_KEY || env.GOOGLE_API_KEY) {
    model = createGemini()(env.GEMINI_MODEL ?? 'gemini-2.5-flash');
  }
  return model && { planner: model, executor: model, verifier: model };
}

// Plain text when piped, with NO_COLOR, or FORCE_COLOR=0 (examples/support/colors.ts).
const { dim, bold } = styles();

function print(event: TandemEvent): void {
  const step = event.stepId ? dim(`[${event.stepId}] `) : '';
  switch (event.type) {
    case 'routing':
      console.log(`${bold('route')} ${event.complexity} task (${event.method}): ${event.reason}`);
      break;
    case 'plan_overview':
      console.log(`${bold('plan')} ${event.title}`);
      for (const s of event.steps)
        console.log(
          `  • ${s.id}: ${s.description}${s.dependsOn.length ? dim(` (after ${s.dependsOn.join(', ')})`) : ''}`,
        );
      break;
    case 'todo_update': {
      const items = event.content.match(/^- \[[ x]\] .*$/gm) ?? [];
      const marks = items.map((line, i) =>
        line.startsWith('- [x]')
          ? `☑ ${i + 1}`
          : line.endsWith('(in progress)')
            ? `▶ ${i + 1}`
            : `☐ ${i + 1}`,
      );
      console.log(dim(`checklist ${event.checked}/${event.total}  ${marks.join('  ')}`));
      break;
    }
    case 'plan_step_started':
      console.log(`${step}${bold('▶')} attempt ${event.attempt} (${event.mode}): ${event.step.description}`);
      break;
    case 'tool_call':
      console.log(`${step}  → ${event.name}(${JSON.stringify(event.args)})`);
      break;
    case 'tool_result':
      console.log(`${step}  ${event.isError ? '✗' : '←'} ${event.output.slice(0, 120)}`);
      break;
    case 'plan_step_failed':
      console.log(
        `${step}${event.skipped ? '⤼ skipped' : '✗ failed'}: ${event.error.message}${event.willRetry ? dim(' — escalating') : ''}`,
      );
      break;
    case 'plan_step_completed':
      console.log(`${step}${bold('✓')} ${event.output}`);
      break;
    case 'stage':
      if (event.name === 'verifying' && event.status === 'completed') console.log(dim('verified'));
      if (event.name === 'finalizing' && event.status === 'running')
        process.stdout.write(`${bold('answer')} `);
      if (event.name === 'finalizing' && event.status !== 'running') process.stdout.write('\n');
      break;
    case 'token':
      if (event.agent === 'finalizer') process.stdout.write(event.delta);
      break;
    case 'complete':
      console.log(
        `${bold('done')} status=${event.status} tokens in/out=${event.usage.inputTokens}/${event.usage.outputTokens}`,
      );
      break;
    case 'error':
      console.log(`${bold('error')} ${event.error.kind}: ${event.error.message}`);
      break;
    default:
  }
}

async function main(): Promise<void> {
  const real = providerModels();
  const models = real ?? scriptedModels();
  console.log(real ? `tandem demo on ${models.executor.id}` : 'tandem demo (offline, scripted models)');
  console.log(`${bold('task')} ${TASK}\n`);
  const orchestrator = new Orchestrator({
    models: { planner: models.planner, executor: models.executor, verifier: models.verifier },
    tools: [lookupPopulation, add],
    planning: { classify: 'llm' },
    limits: real ? {} : { maxIterations: 3 },
  });
  const run = orchestrator.run(TASK);
  for await (const event of run) print(event);
  // Resolves however the run ends; `failed` carries the typed error (docs/results.md).
  const result = await run.result;
  process.exitCode = result.status !== 'failed' ? 0 : 1;
}

// `npm run demo -- --viewer`: the same orchestration, watched in the browser (examples/viewer.ts).
if (process.argv.includes('--viewer')) await import('./viewer.js');
else await main();
