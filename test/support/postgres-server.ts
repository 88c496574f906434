/**
 * A real PostgreSQL server for tests, from Debian's `postgresql` package:
 * `initdb` in a temp dir, `postgres` on a free loopback port with its unix
 * socket in that dir, fsync off, stopped by PID. Postgres refuses to run as
 * root, so as root the server runs as `nobody` through `setpriv` (which
 * execs, so the PID we hold is the postmaster's). When the binaries are
 * missing the start FAILS with instructions: Postgres tests never pass
 * silently without Postgres.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** A running server. Superuser `postgres`, trust auth, database `postgres`. */
export interface PostgresServer {
  host: string;
  port: number;
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  /** The postmaster's PID. */
  pid: number;
  /** Creates a fresh database and resolves its URL: one per test keeps tests apart. */
  createDatabase(name: string): Promise<string>;
  /** Fast shutdown (SIGINT: clients are disconnected), then removes the temp dir. */
  stop(): Promise<void>;
}

/** The directory holding `initdb` and `postgres`: `POSTGRES_BIN_DIR`, the newest `/usr/lib/postgresql/<v>/bin`, or undefined. */
export function findPostgresBinDir(): string | undefined {
  const fromEnv = process.env.POSTGRES_BIN_DIR;
  if (fromEnv) return fromEnv;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** As root, the command prefix that drops to `nobody` (Postgres will not run as root). */
function asUnprivileged(command: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [command, args];
  return ['setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', command, ...args]];
}

/** Starts a fresh server and resolves once it accepts connections. */
export async function startPostgresServer(binDir = findPostgresBinDir()): Promise<PostgresServer> {
  const postgres = binDir && join(binDir, 'postgres');
  if (!postgres || !existsSync(postgres) || !existsSync(join(binDir, 'initdb'))) {
    throw new Error(
      `PostgreSQL is required for the Postgres store tests but no initdb/postgres was found in ${binDir ?? '/usr/lib/postgresql/*/bin'}. ` +
        'Install it (apt-get install -y postgresql) or point POSTGRES_BIN_DIR at its bin directory.',
    );
  }
  const dir = await mkdtemp(join(tmpdir(), 'tandem-pg-'));
  if (process.getuid?.() === 0) await chown(dir, uidOf('nobody'), gidOf('nogroup'));
  const dataDir = join(dir, 'data');
  const [initCmd, initArgs] = asUnprivileged(join(binDir, 'initdb'), [
    ...['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
  ]);
  const init = spawnSync(initCmd, initArgs, { encoding: 'utf8' });
  if (init.status !== 0)
    throw new Error(`initdb failed (${init.status}):\n${init.stderr}${init.error ?? ''}`);
  const port = await freePort();
  const [cmd, args] = asUnprivileged(postgres, [
    ...['-D', dataDir, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1'],
    ...['-c', 'fsync=off', '-c', 'full_page_writes=off', '-c', 'max_connections=100'],
  ]);
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  await whenReady(child);
  const url = (db: string) => `postgres://postgres@127.0.0.1:${port}/${db}`;
  return {
    host: '127.0.0.1',
    port,
    url: url('postgres'),
    pid: child.pid ?? 0,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url('postgres') });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          process.kill(child.pid ?? 0, 'SIGINT');
        });
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function whenReady(child: ChildProcess): Promise<void> {
  let output = '';
  return new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('database system is ready to accept connections')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`postgres exited with ${code} before it was ready:\n${output}`)),
    );
    child.once('error', reject);
  });
}

function idOf(flag: '-u' | '-g', name: string): number {
  const out = spawnSync('id', [flag, name], { encoding: 'utf8' });
  const id = Number(out.stdout.trim());
  if (out.status !== 0 || !Number.isInteger(id)) throw new Error(`no user/group ${name} to run postgres as`);
  return id;
}
const uidOf = (name: string) => idOf('-u', name);
const gidOf = (name: string) => {
  const out = spawnSync('getent', ['group', name], { encoding: 'utf8' });
  const gid = Number(out.stdout.split(':')[2]);
  return Number.isInteger(gid) && out.status === 0 ? gid : idOf('-g', 'nobody');
};
