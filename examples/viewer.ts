/**
 * The live run viewer, offline: serves the viewer on 127.0.0.1, runs the
 * demo's orchestration on its scripted models — slowed down enough to watch
 * — and prints the URL to open. The sum asks for your approval on the page.
 *
 *   npx tsx examples/viewer.ts            (or: npm run demo -- --viewer)
 *   npx tsx examples/viewer.ts --port 4173 --delay 700
 *   npx tsx examples/viewer.ts --once     (approves by itself and exits when the run ends)
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { ApprovalGate, type ChatModel, MemoryInterruptBus, Orchestrator } from 'tandem-agents';
import { createViewerHandler, toNodeListener } from 'tandem-agents/viewer/server';
import { add, lookupPopulation, scriptedModels, TASK } from './support/population-scenario.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.PORT ?? '4173' },
    delay: { type: 'string', default: '600' },
    once: { type: 'boolean', default: false },
    viewer: { type: 'boolean', default: false },
  },
});
const delayMs = Number(values.delay);

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The model, each call and each streamed word delayed so a person can follow the run. */
function slowed(model: ChatModel): ChatModel {
  if (delayMs <= 0) return model;
  const stream = model.stream?.bind(model);
  return {
    id: model.id,
    info: model.info,
    async generate(request, options) {
      await wait(delayMs);
      return model.generate(request, options);
    },
    stream:
      stream &&
      async function* (request, options) {
        await wait(delayMs);
        for await (const part of stream(request, options)) {
          if (part.type === 'text-delta') await wait(delayMs / 12);
          yield part;
        }
      },
  };
}

const models = scriptedModels();
const bus = new MemoryInterruptBus();
// The sum is harmless; it asks anyway, to show a question on the page.
const approvals = new ApprovalGate({ bus, requiresApproval: (call) => call.tool.name === 'add' });
const orchestrator = new Orchestrator({
  models: {
    planner: slowed(models.planner),
    executor: slowed(models.executor),
    verifier: slowed(models.verifier),
  },
  tools: [lookupPopulation, add],
  planning: { classify: 'llm' },
  limits: { maxIterations: 3 },
  safety: { approvals },
});

const host = '127.0.0.1';
const port = Number(values.port);
// Host names a page on this machine uses: a rebinding site's name gets 403.
const viewer = createViewerHandler({
  bus,
  allowedHosts: port === 0 ? undefined : [`${host}:${port}`, `localhost:${port}`],
});
const server = createServer(toNodeListener(viewer.handle));
await new Promise<void>((resolve) => server.listen(port, host, resolve));
const url = `http://${host}:${(server.address() as AddressInfo).port}/`;

const run = orchestrator.run(TASK);
viewer.track(run, { title: TASK });
console.log(`tandem viewer: ${url}#run=${run.runId}`);
run.on('interrupt', (e) => {
  console.log(`waiting for you: ${e.interrupt.title} (answer it on the page)`);
  if (values.once) void bus.respond(e.interrupt.id, { action: 'approve' });
});
run.on('interrupt_response', (e) => console.log(`answered: ${e.action}`));
const result = await run.result;
console.log(`run ended: ${result.status} — ${result.error?.message ?? result.output}`);
if (values.once) {
  server.close();
  server.closeAllConnections();
} else {
  console.log('The viewer keeps serving the run; Ctrl-C stops it.');
}
