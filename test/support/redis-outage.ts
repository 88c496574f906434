/**
 * Redis behind a TCP proxy, for outage tests: cutting the proxy is an outage
 * the server's data survives, so what a store holds after it can be checked.
 */
import { Redis, type RedisOptions } from 'ioredis';
import { afterEach, beforeEach } from 'vitest';
import { type RedisServer, startRedisServer } from './redis-server.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

/** Cuts Redis off and back on for `client`, resolving once it has seen each. */
export function outageOf(client: Redis, proxy: TcpProxy) {
  return {
    async outage(): Promise<void> {
      const dropped = new Promise((resolve) => client.once('close', resolve));
      await proxy.cut();
      await dropped;
    },
    /** Resolves once the client is ready again and everything it had queued was answered. */
    async recovery(): Promise<void> {
      const ready = new Promise((resolve) => client.once('ready', resolve));
      await proxy.restore();
      await ready;
      await client.ping();
    },
  };
}

/**
 * A fresh redis-server and proxy per test: `client` (options `base`) goes
 * through the proxy, `admin` straight to the server.
 */
export function useRedisBehindProxy(base: RedisOptions) {
  const env = {} as { server: RedisServer; proxy: TcpProxy; client: Redis; admin: Redis };
  beforeEach(async () => {
    env.server = await startRedisServer();
    env.proxy = await startTcpProxy(env.server.port);
    // The test owns this client, so it listens to its errors itself.
    env.client = new Redis({ port: env.proxy.port, ...base, retryStrategy: () => 5 }).on('error', () => {});
    env.admin = new Redis(env.server.url);
  });
  afterEach(async () => {
    env.client.disconnect();
    env.admin.disconnect();
    await env.proxy.close();
    await env.server.stop();
  });
  return {
    get client() {
      return env.client;
    },
    get admin() {
      return env.admin;
    },
    get proxy() {
      return env.proxy;
    },
    outage: () => outageOf(env.client, env.proxy).outage(),
    recovery: () => outageOf(env.client, env.proxy).recovery(),
  };
}
