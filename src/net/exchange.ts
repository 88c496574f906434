/**
 * One HTTP exchange over `node:http` / `node:https` with a caller-supplied
 * `lookup`, so the address connected to is the address checked. No
 * connection pooling: every hop opens its own socket through that lookup.
 * @module
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { errorMessage } from '../core/errors.js';
import { SafeFetchError } from './errors.js';
import type { Hop } from './redirect.js';

/** A server's answer whose body has not been read yet. */
export interface Reply {
  status: number;
  statusText: string;
  headers: Headers;
  /** Reads the body, failing with `too_large` past `maxBytes`. */
  read(maxBytes: number): Promise<Uint8Array<ArrayBuffer>>;
  /** Drops the body and closes the connection. */
  discard(): void;
}

/**
 * Sends `hop` and resolves with the answer's head. Aborting `signal` destroys
 * the connection at any point, the body read included; the call then rejects
 * with the signal's reason.
 */
export function send(hop: Hop, lookup: LookupFunction, signal: AbortSignal): Promise<Reply> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<Reply>((resolve, reject) => {
    const request = (hop.url.protocol === 'https:' ? httpsRequest : httpRequest)({
      method: hop.method,
      hostname: hop.url.hostname.replace(/^\[|\]$/g, ''),
      port: hop.url.port || undefined,
      path: `${hop.url.pathname}${hop.url.search}`,
      headers: headerRecord(hop.headers),
      lookup,
      agent: false,
    });
    const onAbort = () => request.destroy(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    request.once('close', () => signal.removeEventListener('abort', onAbort));
    request.once('error', (error) => reject(signal.aborted ? signal.reason : connectionError(error, hop)));
    request.once('response', (message) => {
      try {
        resolve(reply(message, hop, signal));
      } catch (error) {
        message.destroy();
        reject(error);
      }
    });
    request.end(hop.body);
  });
}

function headerRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

function reply(message: IncomingMessage, hop: Hop, signal: AbortSignal): Reply {
  const headers = new Headers();
  try {
    for (let i = 0; i + 1 < message.rawHeaders.length; i += 2) {
      headers.append(message.rawHeaders[i]!, message.rawHeaders[i + 1]!);
    }
  } catch (error) {
    throw new SafeFetchError('invalid_response', `Invalid response headers: ${errorMessage(error)}`, {
      url: hop.url.href,
      cause: error,
    });
  }
  return {
    status: message.statusCode ?? 0,
    statusText: message.statusMessage ?? '',
    headers,
    read: (maxBytes) => readBody({ message, hop, signal }, maxBytes),
    discard: () => message.destroy(),
  };
}

/** A response being received: its message, the hop it answers and the fetch's signal. */
interface Incoming {
  message: IncomingMessage;
  hop: Hop;
  signal: AbortSignal;
}

async function readBody(
  { message, hop, signal }: Incoming,
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const tooLarge = () =>
    new SafeFetchError('too_large', `Response body is over ${maxBytes} bytes`, { url: hop.url.href });
  if (Number(message.headers['content-length']) > maxBytes) {
    message.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of message as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) {
        message.destroy();
        throw tooLarge();
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw error instanceof SafeFetchError ? error : connectionError(error, hop);
  }
  return Buffer.concat(chunks);
}

function connectionError(error: unknown, hop: Hop): SafeFetchError {
  if (error instanceof SafeFetchError) return error;
  return new SafeFetchError('connection', `Request to ${hop.url.origin} failed: ${errorMessage(error)}`, {
    url: hop.url.href,
    cause: error,
  });
}
