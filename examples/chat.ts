/**
 * A terminal chat that remembers: every turn is appended to a session in the
 * embedded database (PGlite, in a data directory), so the conversation goes
 * on after the process is restarted.
 *
 *   npx tsx examples/chat.ts                 (type lines; Ctrl-D ends; run it again to resume)
 *   npx tsx examples/chat.ts --data ./chat-db --thread work
 *
 * Offline it answers with a small scripted model that remembers names from
 * the conversation it is given; with OPENAI_API_KEY (or OPENAI_BASE_URL for
 * an OpenAI-compatible server, model from OPENAI_MODEL) it is a real chat.
 * Not on a terminal (piped, or in CI), it shows the restart itself: one
 * process tells the bot a name, a second process on the same database asks
 * for it back.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { type ChatModel, Executor, type ModelRequest, type Session, textOf } from 'tandem-agents';
import { createOpenAI } from 'tandem-agents/openai';
import { openPgliteStore } from 'tandem-agents/pglite';
import { ScriptedModel } from 'tandem-agents/testing';

/** The scripted bot: it knows only what the conversation it is sent says. */
function reply(request: ModelRequest): string {
  const said = request.messages.filter((m) => m.role === 'user').map(textOf);
  const last = said.at(-1) ?? '';
  const name = /my name is (\w+)/i.exec(said.join('\n'))?.[1];
  if (/what is my name/i.test(last))
    return name ? `Your name is ${name}.` : 'You have not told me your name.';
  if (/my name is/i.test(last)) return `Nice to meet you, ${name}. I will remember that.`;
  return `You said: ${last} (${request.messages.length} message(s) in this conversation)`;
}

function model(): ChatModel {
  const env = process.env;
  if (env.OPENAI_API_KEY || env.OPENAI_BASE_URL) {
    const openai = createOpenAI({ apiKey: env.OPENAI_API_KEY, baseURL: env.OPENAI_BASE_URL });
    return openai(env.OPENAI_MODEL ?? 'gpt-4o-mini');
  }
  return new ScriptedModel([(request) => ({ text: reply(request) })], { loop: true });
}

const executor = new Executor({ model: model(), instructions: 'You are a friendly, brief assistant.' });

/** One turn: the session supplies the history and keeps what the run adds. */
async function turn(session: Session, text: string): Promise<string> {
  const result = await executor.run(text, { session }).result;
  if (result.session?.error) console.error(`(not saved: ${result.session.error.message})`);
  return result.status === 'success' ? result.output : `[${result.status}] ${result.error?.message}`;
}

/** Opens the thread in `dataDir`, says how much it already holds, runs `chat`, and closes the database. */
async function withThread(
  where: { dataDir: string; threadId: string; label?: string },
  chat: (session: Session) => Promise<void>,
) {
  const { dataDir, threadId, label = '' } = where;
  const store = await openPgliteStore({ dataDir });
  try {
    const session = store.session(threadId, { resourceId: 'me' });
    const { lastSeq } = await session.load({ limit: 0 });
    console.log(
      `${label}${lastSeq ? `resuming "${threadId}": ${lastSeq} earlier message(s)` : `new thread "${threadId}"`}`,
    );
    await chat(session);
  } finally {
    await store.close();
  }
}

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const thread = option('--thread') ?? 'main';
const said = option('--say');

if (said !== undefined) {
  // One turn in a process of its own (the restart shown below).
  const dataDir = option('--data')!;
  await withThread({ dataDir, threadId: thread }, async (session) => {
    console.log(`you: ${said}`);
    console.log(`bot: ${await turn(session, said)}`);
  });
} else if (process.stdin.isTTY) {
  const dataDir = option('--data') ?? join(tmpdir(), 'tandem-chat');
  console.log(`database: ${dataDir}`);
  await withThread({ dataDir, threadId: thread }, async (session) => {
    const lines = createInterface({ input: process.stdin, output: process.stdout, prompt: 'you: ' });
    lines.prompt();
    for await (const line of lines) {
      if (line.trim()) console.log(`bot: ${await turn(session, line.trim())}`);
      lines.prompt();
    }
  });
} else {
  // Not on a terminal: two processes, one database. The second knows what the first was told.
  const dataDir = mkdtempSync(join(tmpdir(), 'tandem-chat-'));
  const self = fileURLToPath(import.meta.url);
  const text = 'Hi! My name is Ada.';
  try {
    await withThread({ dataDir, threadId: thread, label: '[process 1] ' }, async (session) => {
      console.log(`[process 1] you: ${text}`);
      console.log(`[process 1] bot: ${await turn(session, text)}`);
    });
    const args = [...process.execArgv, self, '--data', dataDir, '--say', 'What is my name?'];
    const out = execFileSync(process.execPath, args, { encoding: 'utf8' });
    for (const line of out.trimEnd().split('\n')) console.log(`[process 2] ${line}`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
