/**
 * An agent using the tools of an MCP server. The server is this same file
 * started with `--serve` as a child process speaking MCP over stdio — the
 * way a real local server (filesystem, git, …) is run. Offline: the model is
 * scripted.
 *
 *   npx tsx examples/mcp.ts
 */
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { Executor } from 'tandem-agents';
import { connectMcp } from 'tandem-agents/mcp';
import { ScriptedModel } from 'tandem-agents/testing';
import { z } from 'zod';

/** The MCP server: a notebook kept in memory. */
async function serve(): Promise<void> {
  const notes: string[] = [];
  const server = new McpServer({ name: 'notebook', version: '1.0.0' });
  server.registerTool(
    'add_note',
    { description: 'Add a note to the notebook', inputSchema: { text: z.string().min(1) } },
    ({ text }) => {
      notes.push(text);
      return { content: [{ type: 'text', text: `Saved note #${notes.length}` }] };
    },
  );
  server.registerTool(
    'list_notes',
    { description: 'List every note', annotations: { readOnlyHint: true } },
    () => ({
      content: [{ type: 'text', text: notes.map((n, i) => `${i + 1}. ${n}`).join('\n') || '(empty)' }],
    }),
  );
  server.registerTool(
    'clear_notes',
    { description: 'Delete every note', annotations: { destructiveHint: true } },
    () => {
      notes.length = 0;
      return { content: [{ type: 'text', text: 'Cleared' }] };
    },
  );
  await server.connect(new StdioServerTransport());
}

async function main(): Promise<void> {
  // Start this file again as the server, with the same loader flags (tsx) as this process.
  const notebook = await connectMcp(
    { command: process.execPath, args: [...process.execArgv, fileURLToPath(import.meta.url), '--serve'] },
    { prefix: 'notebook_', exclude: ['clear_notes'], timeoutMs: 10_000 },
  );
  try {
    console.log(`server pid ${notebook.pid}; tools:`);
    for (const tool of notebook.tools)
      console.log(`  ${tool.name} (risk ${tool.risk}) — ${tool.description}`);

    const model = new ScriptedModel([
      {
        toolCalls: [
          { name: 'notebook_add_note', args: { text: 'Buy oat milk' } },
          { name: 'notebook_add_note', args: { text: '' } },
        ],
      },
      { toolCalls: [{ name: 'notebook_add_note', args: { text: 'Call the plumber' } }] },
      { toolCalls: [{ name: 'notebook_list_notes', args: {} }] },
      { text: 'Your notebook has two notes: buy oat milk, and call the plumber.' },
    ]);
    const run = new Executor({ model, tools: notebook.tools }).run('Note: buy oat milk, call the plumber.');
    run.on('tool_call', (e) => console.log(`→ ${e.name} ${JSON.stringify(e.args)}`));
    run.on('tool_result', (e) =>
      console.log(`← ${e.isError ? 'error ' : ''}${e.output.replace(/\n/g, ' | ')}`),
    );
    const result = await run.result;
    console.log(`\n${result.output}`);
  } finally {
    await notebook.close();
  }
}

await (process.argv.includes('--serve') ? serve() : main());
