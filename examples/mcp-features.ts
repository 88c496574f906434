/**
 * The rest of MCP beyond plain tools: progress reports as events, a
 * task-based tool, resources, prompts, and sampling answered by a model of
 * ours. The server is this same file started with `--serve` as a child
 * process over stdio. Offline: the models are scripted.
 *
 *   npx tsx examples/mcp-features.ts
 */
import { fileURLToPath } from 'node:url';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CreateMessageResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { Executor } from 'tandem-agents';
import { connectMcp } from 'tandem-agents/mcp';
import { ScriptedModel } from 'tandem-agents/testing';
import { z } from 'zod';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The MCP server: a small build service. */
async function serve(): Promise<void> {
  const server = new McpServer(
    { name: 'builds', version: '1.0.0' },
    {
      capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      taskStore: new InMemoryTaskStore(),
    },
  );
  // Reports progress: 4 steps of 150 ms, more than the client's 400 ms idle timeout in all.
  server.registerTool('build', { description: 'Build the project' }, async (extra) => {
    const token = extra._meta?.progressToken;
    for (let step = 1; step <= 4; step++) {
      await wait(150);
      if (token !== undefined) {
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: step, total: 4, message: `module ${step}/4` },
        });
      }
    }
    return { content: [{ type: 'text', text: 'build ok: 4 modules' }] };
  });
  // A task: the client creates it, polls it and fetches the result.
  server.experimental.tasks.registerToolTask(
    'release',
    { description: 'Publish a release', execution: { taskSupport: 'required' } },
    {
      async createTask(extra) {
        const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 50 });
        void (async () => {
          await extra.taskStore.updateTaskStatus(task.taskId, 'working', 'uploading');
          await wait(120);
          await extra.taskStore.storeTaskResult(task.taskId, 'completed', {
            content: [{ type: 'text', text: 'released v2.1.0' }],
          });
        })();
        return { task };
      },
      getTask: (extra) => extra.taskStore.getTask(extra.taskId),
      getTaskResult: async (extra) => {
        const result = await extra.taskStore.getTaskResult(extra.taskId);
        return result as { content: Array<{ type: 'text'; text: string }> };
      },
    },
  );
  server.registerResource('changelog', 'builds://changelog', { mimeType: 'text/markdown' }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/markdown', text: '## 2.1.0\n- Faster builds' }],
  }));
  server.registerPrompt(
    'release-notes',
    { description: 'Write release notes', argsSchema: { version: z.string() } },
    ({ version }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Write the notes of ${version}.` } }],
    }),
  );
  // Asks the client's model (sampling) for a one-line summary.
  server.registerTool('summarise', { description: 'Summarise the changelog' }, async (extra) => {
    const reply = await extra.sendRequest(
      {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: 'Summarise: faster builds' } }],
          maxTokens: 40,
        },
      },
      CreateMessageResultSchema,
    );
    return {
      content: [{ type: 'text', text: `summary by ${reply.model}: ${JSON.stringify(reply.content)}` }],
    };
  });
  await server.connect(new StdioServerTransport());
}

async function main(): Promise<void> {
  const sampler = new ScriptedModel([{ text: 'Builds got faster.' }], { id: 'scripted:sampler' });
  const builds = await connectMcp(
    { command: process.execPath, args: [...process.execArgv, fileURLToPath(import.meta.url), '--serve'] },
    { timeoutMs: 400, sampling: { model: sampler } },
  );
  try {
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'build', args: {} }] },
      { toolCalls: [{ name: 'release', args: {} }] },
      { toolCalls: [{ name: 'read_resource', args: { uri: 'builds://changelog' } }] },
      { toolCalls: [{ name: 'summarise', args: {} }] },
      { text: 'Built, released v2.1.0, and summarised the changelog.' },
    ]);
    const tools = [...builds.tools, ...builds.resourceTools()];
    const run = new Executor({ model, tools }).run('Build and release.');
    run.on('tool_progress', (e) =>
      console.log(`  … ${e.name} ${e.progress ?? ''}/${e.total ?? ''} ${e.message ?? ''}`),
    );
    run.on('tool_result', (e) => console.log(`← ${e.name}: ${e.output.replace(/\n/g, ' | ')}`));
    console.log((await run.result).output);

    const prompt = await builds.getPrompt('release-notes', { version: '2.1.0' });
    console.log(`prompt: ${JSON.stringify(prompt.messages[0])}`);
  } finally {
    await builds.close();
  }
}

await (process.argv.includes('--serve') ? serve() : main());
