/**
 * Type-checked, never run: every subpath of the package imported with its
 * types, under the module resolution of the tsconfig that includes it
 * (copied to .mts and .cts for node16 / nodenext). The `@ts-expect-error`
 * lines fail the check if an import resolved to `any` instead of real types.
 */
import {
  type ChatModel,
  type CheckpointStore,
  defineTool,
  Executor,
  type ExecutorResult,
  ModelError,
  Orchestrator,
  type TandemEvent,
} from 'tandem-agents';
import { fromAISDK } from 'tandem-agents/ai-sdk';
import { createUIStreamRegistry, type UIChunk } from 'tandem-agents/ai-sdk-ui';
import { createAnthropic } from 'tandem-agents/anthropic';
import { type BrowserError, BrowserSession, browserTools } from 'tandem-agents/browser';
import { FileCheckpointStore } from 'tandem-agents/fs';
import { createGemini } from 'tandem-agents/gemini';
import { connectMcp } from 'tandem-agents/mcp';
import { createOpenAI } from 'tandem-agents/openai';
import { instrument } from 'tandem-agents/otel';
import { openPgliteStore } from 'tandem-agents/pglite';
import { openPostgresStore } from 'tandem-agents/postgres';
import { queueStepRunner } from 'tandem-agents/queue';
import { RedisCheckpointStore } from 'tandem-agents/redis';
import { LocalProcessSandbox } from 'tandem-agents/sandbox';
import { builtinSkills, DEDICATED_MODE_SKILLS } from 'tandem-agents/skills';
import { FakeClock, ScriptedModel } from 'tandem-agents/testing';
import { defineViewerElements, parseEventLog, type RunViewerApi } from 'tandem-agents/viewer';
import { createViewerHandler, type RunSummary, toNodeListener } from 'tandem-agents/viewer/server';
import { z } from 'zod';

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

export const models: ChatModel[] = [
  new ScriptedModel([{ text: 'hi' }]),
  createOpenAI({ apiKey: 'k' })('gpt-4o-mini'),
  createAnthropic({ apiKey: 'k' })('claude-sonnet-4-5'),
  createGemini({ apiKey: 'k' })('gemini-2.5-flash'),
];

export const stores: CheckpointStore[] = [
  new FileCheckpointStore({ dir: '.tandem' }),
  new RedisCheckpointStore({ connection: 'redis://127.0.0.1:6379' }),
];

export async function everySubpath(): Promise<ExecutorResult['status']> {
  const executor = new Executor({ model: models[0]!, tools: [add], runtime: { clock: new FakeClock() } });
  const run = new Orchestrator({ models: { planner: models[0]!, executor: models[0]! } }).run('task');
  const viewer = createViewerHandler({ basePath: '/viewer' });
  const shown: { runId: string; token: string } = viewer.track(run);
  const listener = toNodeListener(viewer.handle);
  const listed: RunSummary[] = viewer.runs();
  const page: Promise<Response> = viewer.handle(new Request('http://127.0.0.1/viewer/'));
  defineViewerElements({ get: () => undefined, define: () => {} });
  const replayed: Pick<RunViewerApi, 'apply'> = { apply: (event: TandemEvent) => void event.seq };
  replayed.apply(parseEventLog('')[0]!);
  const stop: () => void = instrument(run);
  run.on('tool_call', (event: Extract<TandemEvent, { type: 'tool_call' }>) => event.name.toUpperCase());
  stop();
  const sandbox = await LocalProcessSandbox.create();
  const mcp = await connectMcp({ command: 'node', args: ['server.js'] });
  const runner = queueStepRunner({ connection: 'redis://127.0.0.1:6379' });
  const aiModel: ChatModel = fromAISDK(null as unknown as Parameters<typeof fromAISDK>[0]);
  const error = new ModelError('rate_limit', 'slow down');
  const skills: string[] = builtinSkills().map((skill) => skill.id);
  const dataMode: string = DEDICATED_MODE_SKILLS.data!.skill;
  const embedded: CheckpointStore = (await openPgliteStore()).checkpoints;
  const server = await openPostgresStore({ connectionString: 'postgres://127.0.0.1/app' });
  const seq: number = (await server.session('t').append([{ role: 'user', content: 'hi' }]))[0]!.seq;
  const browser = new BrowserSession({
    executablePath: '/usr/bin/chromium',
    network: { allowHosts: ['127.0.0.1'] },
  });
  const browsing: string[] = browserTools(browser, { needsApproval: ['browser_click'] }).map(
    (tool) => tool.name,
  );
  const browserKind: BrowserError['kind'] = 'blocked';
  void [browsing, browserKind];
  const uiStream: Response = createUIStreamRegistry().serve(run, { chatId: 'chat-1' });
  const uiChunk: UIChunk['type'] = 'text-delta';
  void [uiStream, uiChunk];
  void [shown, listener, listed, page];
  void [sandbox, mcp, runner, aiModel, error.kind satisfies string, skills, dataMode, embedded, seq];
  return (await executor.run('2 + 3?').result).status;
}

// @ts-expect-error: an Executor needs a model
new Executor({ tools: [add] });
defineTool({
  name: 'x',
  description: 'x',
  parameters: z.object({ a: z.number() }),
  // @ts-expect-error: tool arguments are typed from the schema (a number has no trim)
  execute: ({ a }) => a.trim(),
});
// @ts-expect-error: a viewer's run limit is a number
createViewerHandler({ maxRuns: 'many' });
// @ts-expect-error: not a ModelError kind
new ModelError('no_such_kind', 'x');
