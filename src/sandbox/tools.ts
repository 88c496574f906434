/**
 * Tools over a sandbox: `execute_code`, `read_file`, `write_file`,
 * `edit_file`, `apply_patch`, `list_files`, and the opt-in CodeAct
 * `execute_script`. Each uses the
 * sandbox it was created with, or the run's `ctx.sandbox`.
 * @module
 */
import { z } from 'zod/v4';
import type { ExecOptions, ExecResult, Sandbox } from '../core/sandbox.js';
import { type Clock, systemClock } from '../core/seams.js';
import { defineTool, type Tool, type ToolContext, type ToolRisk } from '../tools/types.js';
import { CODEACT_HELPERS } from './codeact-lib.js';
import { createEditTools, type PrepareWrite } from './edit-tools.js';
import { SandboxError } from './errors.js';
import { DEFAULT_MAX_ATTACHMENT_BYTES, readForModel } from './read-file.js';
import type { RollbackPoints } from './rollback-points.js';
import { openSearchBridge, type ScriptSearch } from './search-bridge.js';
import { TerminalStream } from './terminal-stream.js';

/** Options of {@link createSandboxTools}. */
export interface SandboxToolsOptions {
  /** Risk of `execute_code` and `execute_script`; approvals key off it. Default `'risky'`. */
  executeRisk?: ToolRisk;
  /** Deadline of a run when the model gives none. Default 30 s. */
  defaultTimeoutMs?: number;
  /** Longest deadline the model may ask for. Default 300 s. */
  maxTimeoutMs?: number;
  /** Cap on captured stdout and stderr, each. Default 100 000 bytes. */
  maxOutputBytes?: number;
  /** Add the CodeAct `execute_script` tool. Default false. */
  codeAct?: boolean;
  /** Largest image, PDF or audio file `read_file` returns as an attachment, in bytes. Default 5 MB. */
  maxAttachmentBytes?: number;
  /**
   * Saves the workspace before the first write, patch or command of each
   * executor turn, so the turn can be undone (`rollback.restore`). Default:
   * none.
   */
  rollback?: RollbackPoints;
  /** Paces the live `terminal_output` events of running code (tests pass a fake). Default the system clock. */
  clock?: Clock;
  /**
   * Gives CodeAct scripts `tandem.search(query)`: the host runs this search
   * (e.g. `searxng({ … }).search` from `tandem-agents/search`) for the
   * script, whose sandbox has no network. Default: none.
   */
  search?: ScriptSearch;
  /** Searches one script may make. Default 10. */
  maxScriptSearches?: number;
}

/** Resolved run settings shared by the code tools. */
interface RunSettings {
  defaultTimeoutMs: number;
  maxTimeoutMs: number;
  maxOutputBytes: number;
  clock: Clock;
  search?: ScriptSearch;
  maxScriptSearches: number;
}

/**
 * The sandbox tools: `execute_code` (risky), `read_file` (safe, parallel;
 * images, PDFs and audio come back as attachments),
 * `write_file`, `edit_file` and `apply_patch` (moderate), `list_files`
 * (safe, parallel), and with `codeAct: true` also `execute_script`.
 * @param sandbox Used by every call; without it, calls use `ctx.sandbox`.
 */
export function createSandboxTools(sandbox?: Sandbox, options: SandboxToolsOptions = {}): Tool[] {
  const settings: RunSettings = {
    defaultTimeoutMs: options.defaultTimeoutMs ?? 30_000,
    maxTimeoutMs: options.maxTimeoutMs ?? 300_000,
    maxOutputBytes: options.maxOutputBytes ?? 100_000,
    clock: options.clock ?? systemClock,
    search: options.search,
    maxScriptSearches: options.maxScriptSearches ?? 10,
  };
  const pick = (ctx: ToolContext) => sandboxOf(sandbox, ctx);
  const { rollback } = options;
  const prepare: PrepareWrite = async (ctx) => {
    const target = pick(ctx);
    if (rollback) await rollback.before(target, ctx);
    return target;
  };
  const maxAttachmentBytes = options.maxAttachmentBytes ?? DEFAULT_MAX_ATTACHMENT_BYTES;
  const risk = options.executeRisk ?? 'risky';
  const tools: Tool[] = [
    defineTool({
      name: 'execute_code',
      description:
        'Run code in the sandbox and get its exit code, stdout and stderr. Files persist in the workspace (the working directory) between runs.',
      parameters: z.object({
        language: z.enum(['python', 'node', 'bash']).describe('Language of the code'),
        code: z.string().describe('The program to run'),
        timeoutMs: z.number().int().positive().optional().describe('Deadline in milliseconds'),
      }),
      risk,
      execute: async ({ language, code, timeoutMs }, ctx) =>
        formatExecResult(
          await execLive(
            await prepare(ctx),
            { language, code, ...runLimits(settings, timeoutMs, ctx) },
            new TerminalStream(ctx, settings.clock),
          ),
        ),
    }),
    defineTool({
      name: 'read_file',
      description:
        'Read a file of the sandbox workspace: text comes back as text; images, PDFs and audio as an attachment you can see. Paths are relative to the workspace.',
      parameters: z.object({ path: z.string().describe('File path relative to the workspace') }),
      parallelSafe: true,
      execute: async ({ path }, ctx) => readForModel(pick(ctx), path, maxAttachmentBytes),
    }),
    defineTool({
      name: 'write_file',
      description:
        'Write a text file in the sandbox workspace, creating directories. Overwrites an existing file.',
      parameters: z.object({
        path: z.string().describe('File path relative to the workspace'),
        content: z.string().describe('The whole new content'),
      }),
      risk: 'moderate',
      execute: async ({ path, content }, ctx) => {
        await (await prepare(ctx)).writeFile(path, content);
        ctx.emit.emit('workspace_update', { paths: [path], change: 'write' });
        return `Wrote ${Buffer.byteLength(content)} bytes to ${path}`;
      },
    }),
    ...createEditTools(prepare),
    defineTool({
      name: 'list_files',
      description:
        'List a directory of the sandbox workspace: "d path/" for directories, "f path (bytes)" for files.',
      parameters: z.object({
        path: z.string().optional().describe('Directory relative to the workspace; default the root'),
        recursive: z.boolean().optional().describe('Include subdirectories; default false'),
      }),
      parallelSafe: true,
      execute: async ({ path, recursive }, ctx) => {
        const entries = await pick(ctx).listFiles(path ?? '.', { recursive });
        if (entries.length === 0) return '(empty)';
        return entries
          .map((e) => (e.type === 'directory' ? `d ${e.path}/` : `f ${e.path} (${e.size})`))
          .join('\n');
      },
    }),
  ];
  if (options.codeAct) tools.push(createExecuteScriptTool(prepare, settings, risk));
  return tools;
}

function createExecuteScriptTool(prepare: PrepareWrite, settings: RunSettings, risk: ToolRisk): Tool {
  return defineTool({
    name: 'execute_script',
    description: [
      'Run a multi-step script in the sandbox. A helper module is preloaded as `tandem`:',
      'tandem.read(path) -> str; tandem.write(path, content); tandem.list(path=".", recursive=False) -> paths;',
      'tandem.run(command) -> {exit_code, stdout, stderr} (node: {exitCode, stdout, stderr}).',
      settings.search
        ? 'tandem.search(query) -> [{title, url, snippet}] searches the web (the sandbox has no network otherwise).'
        : '',
      'Paths are relative to the workspace. Print what you want to see; you get exit code, stdout and stderr.',
    ]
      .filter(Boolean)
      .join(' '),
    parameters: z.object({
      language: z.enum(['python', 'node']).optional().describe('Script language; default python'),
      code: z.string().describe('The script'),
      timeoutMs: z.number().int().positive().optional().describe('Deadline in milliseconds'),
    }),
    risk,
    execute: async ({ language = 'python', code, timeoutMs }, ctx) => {
      const target = await prepare(ctx);
      const helpers = CODEACT_HELPERS[language];
      await target.writeFile(helpers.file, helpers.source);
      const limits = runLimits(settings, timeoutMs, ctx);
      const bridge = await searchBridgeFor(target, settings, ctx);
      try {
        const env = bridge ? { TANDEM_BRIDGE: bridge.path } : undefined;
        const run = { language, code: helpers.prelude + code, shown: code, env, ...limits };
        return formatExecResult(await execLive(target, run, new TerminalStream(ctx, settings.clock)));
      } finally {
        await bridge?.close();
      }
    },
  });
}

/** The search bridge of one script, when a search is configured and the sandbox's workspace is on this host. */
function searchBridgeFor(sandbox: Sandbox, settings: RunSettings, ctx: ToolContext) {
  const root = (sandbox as { root?: unknown }).root;
  if (!settings.search || typeof root !== 'string') return Promise.resolve(undefined);
  return openSearchBridge(root, {
    search: settings.search,
    name: `b-${ctx.toolCallId.replace(/[^A-Za-z0-9]/g, '').slice(-12)}`,
    signal: ctx.signal,
    maxSearches: settings.maxScriptSearches,
  });
}

/**
 * Runs code with its output streamed as terminal events while it runs; the
 * terminal shows `shown` (the model's code without a preloaded prelude).
 */
async function execLive(
  sandbox: Sandbox,
  run: ExecOptions & { code: string; shown?: string },
  terminal: TerminalStream,
): Promise<ExecResult> {
  const { shown, ...options } = run;
  terminal.start(shown ?? run.code, run.language);
  try {
    const result = await sandbox.exec('', { ...options, onOutput: terminal.push });
    terminal.finish(result);
    return result;
  } finally {
    terminal.flush();
  }
}

function runLimits(settings: RunSettings, timeoutMs: number | undefined, ctx: ToolContext) {
  return {
    timeoutMs: Math.min(timeoutMs ?? settings.defaultTimeoutMs, settings.maxTimeoutMs),
    maxOutputBytes: settings.maxOutputBytes,
    signal: ctx.signal,
  };
}

function sandboxOf(sandbox: Sandbox | undefined, ctx: ToolContext): Sandbox {
  const found = sandbox ?? ctx.sandbox;
  if (!found) {
    throw new SandboxError(
      'unavailable',
      'No sandbox: create the tools with one, or run the agent with `sandbox`',
    );
  }
  return found;
}

/** An exec result as the text a model reads: status line, then stdout and stderr when not empty. */
export function formatExecResult(result: ExecResult): string {
  const status = result.timedOut
    ? `timed out after ${result.durationMs} ms (process tree killed)`
    : `exit code ${result.exitCode ?? 'none (killed by a signal)'}`;
  const parts = [status];
  if (result.stdout) parts.push(`stdout:\n${result.stdout}`);
  if (result.stderr) parts.push(`stderr:\n${result.stderr}`);
  if (!result.stdout && !result.stderr) parts.push('(no output)');
  if (result.truncated) parts.push('[output truncated at the capture limit]');
  return parts.join('\n');
}
