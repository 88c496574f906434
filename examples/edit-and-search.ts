/**
 * A coding agent's file tools and web search: it searches (SearXNG's JSON API,
 * served here on loopback unless SEARXNG_URL names a real instance), patches a
 * file with a unified diff, edits another in place, and then the edit turn is
 * rolled back. Offline: the model is scripted.
 *
 *   npx tsx examples/edit-and-search.ts
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Executor } from 'tandem-agents';
import { createSandboxTools, LocalProcessSandbox, RollbackPoints } from 'tandem-agents/sandbox';
import { searxng, webSearchTool } from 'tandem-agents/search';
import { ScriptedModel } from 'tandem-agents/testing';

/** A stand-in SearXNG instance: one canned answer in its documented JSON shape. */
async function localSearxng(): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        query: 'python retry backoff',
        results: [
          {
            url: 'https://docs.python.org/3/library/time.html',
            title: 'time — Time access',
            content: 'time.sleep(secs)',
          },
        ],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const patch = `--- a/fetch.py
+++ b/fetch.py
@@ -1,2 +1,6 @@
+import time
+
 def fetch(get):
-    return get()
+    for attempt in range(3):
+        try: return get()
+        except IOError: time.sleep(2 ** attempt)
`;

const model = new ScriptedModel([
  { toolCalls: [{ name: 'web_search', args: { query: 'python retry backoff' } }] },
  { toolCalls: [{ name: 'apply_patch', args: { patch } }] },
  {
    toolCalls: [
      {
        name: 'edit_file',
        args: { path: 'README.md', old_string: 'no retries', new_string: 'retries twice' },
      },
    ],
  },
  { text: 'fetch() now retries with backoff; README updated.' },
]);

const local = process.env.SEARXNG_URL ? undefined : await localSearxng();
const sandbox = await LocalProcessSandbox.create();
try {
  await sandbox.writeFile('fetch.py', 'def fetch(get):\n    return get()\n');
  await sandbox.writeFile('README.md', 'fetch() makes one call, no retries.\n');
  const rollback = new RollbackPoints();
  const search = webSearchTool(searxng({ baseUrl: local?.url ?? process.env.SEARXNG_URL }));
  const executor = new Executor({ model, tools: [search, ...createSandboxTools(sandbox, { rollback })] });
  const run = executor.run('Make fetch() retry with backoff and say so in the README.', { runId: 'edit_1' });
  run.on('tool_result', (e) => console.log(`[${e.name}] ${e.output.split('\n')[0]}`));
  console.log((await run.result).output);
  console.log(
    'rollback points:',
    rollback
      .list()
      .map((p) => p.id)
      .join(', '),
  );
  await rollback.restore(sandbox, 'edit_1#3');
  console.log(`README after rolling back turn 3: ${(await sandbox.readFile('README.md')).trim()}`);
} finally {
  await sandbox.dispose();
  local?.server.close();
}
