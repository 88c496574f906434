/**
 * Web search for CodeAct scripts. A sandbox has no network (under bwrap by
 * design), so a script's `tandem.search(query)` asks the host instead: over
 * a Unix socket in the workspace — a file, which a bind mount shares with
 * the sandbox whatever its network namespace — the host runs the configured
 * search and answers with the hits. The socket exists only while one script
 * runs, answers one JSON line per connection, and stops answering after
 * `maxSearches`.
 * @module
 */
import { rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';

/** A web search the host runs for scripts (a `tandem-agents/search` provider's `search` fits). */
export type ScriptSearch = (
  query: string,
  options: { signal?: AbortSignal; maxResults?: number },
) => Promise<ReadonlyArray<{ title: string; url: string; snippet: string }>>;

/** Longest request line a script may send. */
const MAX_REQUEST_BYTES = 8_192;
/** Unix socket paths longer than this do not fit `sockaddr_un` on Linux. */
const MAX_SOCKET_PATH = 100;

/** A bridge serving one script run. */
export interface SearchBridge {
  /** The socket's path relative to the workspace, for the script's `TANDEM_BRIDGE`. */
  readonly path: string;
  close(): Promise<void>;
}

/**
 * Opens the bridge in `root` (the workspace on the host), or returns
 * `undefined` when the path would be too long for a Unix socket.
 */
export async function openSearchBridge(
  root: string,
  options: { search: ScriptSearch; name: string; signal: AbortSignal; maxSearches: number },
): Promise<SearchBridge | undefined> {
  const relative = `.tandem/${options.name}.sock`;
  const full = join(root, relative);
  if (Buffer.byteLength(full) > MAX_SOCKET_PATH) return undefined;
  await rm(full, { force: true });
  let searches = 0;
  // Half-open: the Node client ends its side after the request, before the answer is written.
  const server: Server = createServer({ allowHalfOpen: true }, (socket) => {
    let buffered = '';
    let answered = false;
    socket.setEncoding('utf8');
    socket.on('error', () => {});
    socket.on('data', (chunk: string) => {
      if (answered) return;
      buffered += chunk;
      if (buffered.length > MAX_REQUEST_BYTES) {
        answered = true;
        return reply(socket, { error: 'request too large' });
      }
      const end = buffered.indexOf('\n');
      if (end === -1) return;
      answered = true;
      searches++;
      if (searches > options.maxSearches) {
        return reply(socket, { error: `search limit of ${options.maxSearches} per script reached` });
      }
      void answer(buffered.slice(0, end), options).then((body) => reply(socket, body));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(full, () => resolve());
  });
  return {
    path: relative,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(full, { force: true });
    },
  };
}

async function answer(
  line: string,
  options: { search: ScriptSearch; signal: AbortSignal },
): Promise<Record<string, unknown>> {
  let request: { query?: unknown; max_results?: unknown };
  try {
    request = JSON.parse(line);
  } catch {
    return { error: 'request is not JSON' };
  }
  if (typeof request.query !== 'string' || request.query.trim() === '')
    return { error: 'query must be a non-empty string' };
  const maxResults = typeof request.max_results === 'number' ? request.max_results : 5;
  try {
    const hits = await options.search(request.query, { signal: options.signal, maxResults });
    return { results: hits.map(({ title, url, snippet }) => ({ title, url, snippet })) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function reply(socket: Socket, body: Record<string, unknown>): void {
  if (!socket.writable) return;
  socket.end(`${JSON.stringify(body)}\n`);
}
