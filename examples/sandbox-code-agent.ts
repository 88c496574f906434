/**
 * An agent that writes a program, runs it, and answers from its output — in a
 * bubblewrap sandbox (no network, read-only system, only the workspace
 * writable), or, when bwrap cannot run here, in a LocalProcessSandbox with a
 * notice. Offline: the model is scripted.
 *
 *   npx tsx examples/sandbox-code-agent.ts
 */

import { Executor, type Sandbox } from 'tandem-agents';
import { BubblewrapSandbox, createSandboxTools, LocalProcessSandbox } from 'tandem-agents/sandbox';
import { ScriptedModel } from 'tandem-agents/testing';

async function openSandbox(): Promise<Sandbox> {
  const check = await BubblewrapSandbox.check();
  if (check.available) return BubblewrapSandbox.create({ limits: { cpuSeconds: 10 } });
  console.log(`notice: ${check.reason}`);
  console.log('notice: falling back to LocalProcessSandbox — convenient, but NOT an isolation boundary.\n');
  return LocalProcessSandbox.create();
}

const program = `import csv, statistics
rows = list(csv.DictReader(open("sales.csv")))
total = sum(float(r["amount"]) for r in rows)
print(f"rows={len(rows)} total={total:.2f} median={statistics.median(float(r['amount']) for r in rows):.2f}")
`;

const model = new ScriptedModel([
  {
    toolCalls: [
      {
        name: 'write_file',
        args: { path: 'sales.csv', content: 'region,amount\nnorth,120.5\nsouth,80\neast,99.5\n' },
      },
      { name: 'write_file', args: { path: 'analyze.py', content: program } },
    ],
  },
  { toolCalls: [{ name: 'execute_code', args: { language: 'bash', code: 'python3 analyze.py' } }] },
  // The network is not there inside bwrap: the agent finds out, rather than leaking data.
  {
    toolCalls: [
      {
        name: 'execute_code',
        args: {
          language: 'python',
          code: 'import socket\nsocket.create_connection(("1.1.1.1", 80), timeout=2)',
        },
      },
    ],
  },
  (request) => {
    const results = request.messages.filter((m) => m.role === 'tool');
    const stats = JSON.stringify(results.at(-2)).match(/rows=\d+ total=[\d.]+ median=[\d.]+/)?.[0];
    const network = JSON.stringify(results.at(-1)).includes('exit code 0') ? 'reachable' : 'unreachable';
    return { text: `Sales summary: ${stats}. (The network was ${network} from the sandbox.)` };
  },
]);

const sandbox = await openSandbox();
try {
  const executor = new Executor({
    model,
    tools: createSandboxTools(sandbox),
    instructions: 'You analyse data by writing and running code in your sandbox.',
  });
  const run = executor.run('Summarise sales.csv: row count, total and median amount.');
  run.on('tool_result', (e) => console.log(`[${e.name}] ${e.output.split('\n').slice(0, 3).join(' | ')}`));
  const result = await run.result;
  console.log(`\n${result.output}`);
  console.log('workspace:', (await sandbox.listFiles()).map((f) => f.path).join(', '));
} finally {
  await sandbox.dispose();
}
