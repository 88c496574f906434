/**
 * Running apps in a sandbox through its `exec` alone. A launcher exec starts
 * the server, health-checks it from inside the sandbox (under bubblewrap each
 * exec has its own network namespace, so only the launcher can reach it) and
 * writes a status file; a second exec waits for that file with a file watch,
 * so readiness is learnt when it happens, with no polling on the host. The
 * launcher exec lives as long as the app: stopping it, or disposing of the
 * sandbox, kills the server.
 * @module
 */
import { AbortError } from '../../core/errors.js';
import type { ExecResult, Sandbox } from '../../core/sandbox.js';

const LAUNCHER = `'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');

const env = process.env;
let stderr = '';
let settled = false;

function report(status) {
  settled = true;
  fs.writeFileSync(env.APP_STATUS + '.tmp', JSON.stringify(status));
  fs.renameSync(env.APP_STATUS + '.tmp', env.APP_STATUS);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

function check(port) {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: env.APP_HEALTH, timeout: 2000 }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => { body += chunk; });
      response.on('end', () => resolve({ status: response.statusCode, body: body.slice(0, 2000) }));
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(undefined));
  });
}

async function main() {
  const port = Number(env.APP_PORT) || (await freePort());
  const child = spawn(process.execPath, [env.APP_ENTRY], {
    cwd: env.APP_DIR,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
    process.stderr.write(chunk);
  });
  child.on('exit', (code, signal) => {
    if (!settled) report({ state: 'exited', port, code, signal, stderr });
    process.exit(code === 0 ? 0 : 1);
  });
  const deadline = Date.now() + Number(env.APP_START_TIMEOUT_MS);
  while (!settled) {
    const health = await check(port);
    if (health && health.status < 500) return report({ state: 'ready', port, health });
    if (Date.now() > deadline) {
      report({ state: 'failed', port, error: 'no answer on ' + env.APP_HEALTH + ' in time', stderr });
      return child.kill();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

main().catch((error) => {
  report({ state: 'failed', error: String((error && error.message) || error), stderr });
  process.exit(1);
});
`;

const WAITER = `'use strict';
const fs = require('node:fs');
const path = require('node:path');

function done() {
  let text;
  try {
    text = fs.readFileSync(process.env.APP_STATUS, 'utf8');
  } catch {
    return;
  }
  process.stdout.write(text);
  process.exit(0);
}
fs.watch(path.dirname(process.env.APP_STATUS), done);
done();
`;

/** How to start one app. */
export interface AppStart {
  appId: string;
  /** The app's directory, relative to the workspace. */
  dir: string;
  /** The server file in `dir`, started with `node`. */
  entry: string;
  healthPath: string;
  /** Port inside the sandbox; 0 picks a free one. */
  port: number;
  startTimeoutMs: number;
  /** The app is stopped after this long (the launcher exec's deadline). */
  lifetimeMs: number;
  /** Aborts the start (not the running app). */
  signal: AbortSignal;
}

/** How a start ended. */
export type AppStatus =
  | { state: 'ready'; port: number; health: { status: number; body: string } }
  | { state: 'failed' | 'exited' | 'gone'; port?: number; error?: string; stderr?: string; code?: number };

interface Running {
  controller: AbortController;
  done: Promise<unknown>;
}

/**
 * The apps `app_builder` started, to stop them before their sandbox goes
 * (disposing of the sandbox stops them too).
 *
 * ```ts
 * const apps = new AppHost();
 * const skills = new SkillRegistry({ skills: [appBuilderSkill({ apps })], model });
 * const { appId, url } = await skills.invokeDirect('app_builder', { description }, { sandbox });
 * await apps.stop(appId);
 * ```
 */
export class AppHost {
  private readonly running = new Map<string, Running>();

  /** Ids of the apps still running. */
  ids(): string[] {
    return [...this.running.keys()];
  }

  /**
   * Starts the app and waits until it answers its health check inside the
   * sandbox, or fails. A failed start leaves nothing running.
   * @throws AbortError when `start.signal` aborts.
   */
  async start(sandbox: Sandbox, start: AppStart): Promise<AppStatus> {
    if (start.signal.aborted) throw new AbortError(start.signal.reason);
    const base = `.tandem/apps/${start.appId}`;
    const status = `${base}/status.json`;
    await sandbox.writeFile(`${base}/launch.cjs`, LAUNCHER);
    await sandbox.writeFile(`${base}/wait.cjs`, WAITER);
    const controller = new AbortController();
    const onAbort = () => controller.abort(start.signal.reason);
    start.signal.addEventListener('abort', onAbort, { once: true });
    const env = {
      APP_DIR: start.dir,
      APP_ENTRY: start.entry,
      APP_HEALTH: start.healthPath,
      APP_PORT: String(start.port),
      APP_STATUS: status,
      APP_TOKEN: start.appId,
      APP_START_TIMEOUT_MS: String(start.startTimeoutMs),
    };
    const launch = sandbox.exec(`node ${base}/launch.cjs`, {
      env,
      timeoutMs: start.lifetimeMs,
      maxOutputBytes: 64 * 1024,
      signal: controller.signal,
    });
    const done = launch.catch(() => undefined).finally(() => this.running.delete(start.appId));
    this.running.set(start.appId, { controller, done });
    try {
      const waited = sandbox.exec(`node ${base}/wait.cjs`, {
        env: { APP_STATUS: status },
        timeoutMs: start.startTimeoutMs + 10_000,
        signal: controller.signal,
      });
      const first = await Promise.race([
        launch.then((result) => ({ launcher: result })),
        waited.then((result) => ({ waiter: result })),
      ]);
      const outcome = 'waiter' in first ? statusOf(first.waiter) : exitedEarly(first.launcher);
      if (outcome.state !== 'ready') await this.stop(start.appId);
      else controller.signal.throwIfAborted();
      return outcome;
    } catch (error) {
      await this.stop(start.appId);
      if (start.signal.aborted) throw new AbortError(start.signal.reason);
      throw error;
    } finally {
      start.signal.removeEventListener('abort', onAbort);
    }
  }

  /** Stops an app and waits until its processes are gone. False when it was not running. */
  async stop(appId: string): Promise<boolean> {
    const app = this.running.get(appId);
    if (!app) return false;
    app.controller.abort(new AbortError('app stopped'));
    await app.done;
    return true;
  }

  /** Stops every app. */
  async stopAll(): Promise<void> {
    await Promise.all(this.ids().map((id) => this.stop(id)));
  }
}

const NO_NODE = 'node is not available in the sandbox';

function statusOf(waiter: ExecResult): AppStatus {
  if (waiter.exitCode === 127) return { state: 'gone', error: NO_NODE };
  if (waiter.exitCode !== 0) {
    const why = waiter.timedOut ? 'no status before the start deadline' : waiter.stderr.trim();
    return { state: 'failed', error: `waiting for the app failed: ${why || `exit ${waiter.exitCode}`}` };
  }
  try {
    return JSON.parse(waiter.stdout) as AppStatus;
  } catch {
    return { state: 'failed', error: `unreadable app status: ${waiter.stdout.slice(0, 200)}` };
  }
}

function exitedEarly(launcher: ExecResult): AppStatus {
  return {
    state: 'gone',
    error: launcher.exitCode === 127 ? NO_NODE : `the launcher exited (code ${launcher.exitCode})`,
    stderr: launcher.stderr.slice(-4000),
  };
}
