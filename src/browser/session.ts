/**
 * `BrowserSession`: one Chromium for one run or one sandbox — launched from
 * an executable or reached over CDP — with the network rules on every
 * request, a page the browser tools act on, and a guaranteed end: closed on
 * `dispose()`, on its `signal`'s abort and on process exit (playwright
 * kills what it launched when the process exits). A launched Chromium talks
 * to playwright over a pipe (`--remote-debugging-pipe`) and exits when the
 * pipe closes, so even a host killed with SIGKILL leaves no browser behind.
 * @module
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { onAbort } from '../core/abort-listeners.js';
import { ConfigError, errorMessage } from '../core/errors.js';
import type { Emitter } from '../core/events.js';
import { type Resolver, systemResolver } from '../net/lookup.js';
import type { UrlPolicy } from '../safety/guardrails/url-check.js';
import { browserErrorOf, withDeadline } from './deadline.js';
import { BrowserError } from './errors.js';
import { guardContext } from './network.js';
import { type WatchedPage, watchPage } from './page-watch.js';
import { type BlockedRequest, type GuardProxy, startGuardProxy } from './proxy.js';
import { type BrowserStreamOptions, Screencast } from './stream.js';

/** What the page may reach. Every request is checked; these widen or narrow the rules. */
export interface BrowserNetworkOptions {
  /** Hosts exempt from the private-address checks: `host` or `host:port` (e.g. your own local site). */
  allowHosts?: readonly string[];
  /** Names blocked with their subdomains. Default: the guardrails' local names (`localhost`, `internal` …). */
  blockedHostSuffixes?: readonly string[];
  /** Resolves host names for the address checks. Default: the system resolver. */
  resolve?: Resolver;
  /** Told of every refused request, besides the action's result. */
  onBlocked?: (blocked: BlockedRequest) => void;
}

/** Options of {@link BrowserSession}: give `executablePath` or `cdpEndpoint`. */
export interface BrowserSessionOptions {
  /** Chromium or Chrome to launch, e.g. `/usr/bin/chromium`. */
  executablePath?: string;
  /**
   * A running browser's CDP endpoint (`http://host:9222` or `ws://…`) to
   * connect to instead. The session opens its own context there and closes
   * only that. Requests are checked by interception alone (see docs/browser.md).
   */
  cdpEndpoint?: string;
  /** Default true. */
  headless?: boolean;
  /** Extra Chromium flags, after the defaults ({@link DEFAULT_CHROMIUM_ARGS}). */
  args?: readonly string[];
  network?: BrowserNetworkOptions;
  /** Where downloads are saved (the workspace). Without it downloads are cancelled. */
  downloadsDir?: string;
  /** Default 1280 × 800. */
  viewport?: { width: number; height: number };
  /** Time to launch or connect. Default 30 000 ms. */
  launchTimeoutMs?: number;
  /** Time for a page to load. Default 30 000 ms. */
  navigationTimeoutMs?: number;
  /** Time for any other action or wait. Default 10 000 ms. */
  actionTimeoutMs?: number;
  /** The live view: `browser_stream` frames while a browser tool runs. `false` turns it off. */
  stream?: false | BrowserStreamOptions;
  /** The address of the run viewer showing a run, for `browser_get_stream_url`: a URL, or one per run id. */
  viewerUrl?: string | ((runId: string) => string);
  /** Closes the session when it aborts (e.g. the run's signal). */
  signal?: AbortSignal;
}

// Longest wait for the page's answer after an action; a page busy longer is left to the next action.
const SETTLE_MS = 2_000;

/** Flags every launched Chromium gets: headless-friendly, no background traffic, no QUIC around the proxy. */
export const DEFAULT_CHROMIUM_ARGS: readonly string[] = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** What an action runs with: the call's signal and emitter, and its own time limit. */
export interface BrowserActionContext {
  signal?: AbortSignal;
  /** Where `browser_action` and `browser_stream` events go (a tool's `ctx.emit`). */
  emit?: Emitter;
  timeoutMs?: number;
}

/** What an action did besides its value: refused requests, dismissed dialogs, saved downloads. */
export interface BrowserActionReport<T> {
  value: T;
  url: string;
  blocked: BlockedRequest[];
  downloads: string[];
}

interface Live {
  browser: Browser;
  context: BrowserContext;
  proxy?: GuardProxy;
  gone: Promise<never>;
}

/** A browser for one run or sandbox. Starts on first use; see the module docs for its end. */
export class BrowserSession {
  private readonly options: BrowserSessionOptions;
  private starting: Promise<Live> | undefined;
  private live: Live | undefined;
  private watched: WatchedPage | undefined;
  private cast: Screencast | undefined;
  private actionBlocked: BlockedRequest[] | undefined;
  private isClosed = false;
  private unlinkSignal: (() => void) | undefined;

  constructor(options: BrowserSessionOptions) {
    if (!options.executablePath === !options.cdpEndpoint)
      throw new ConfigError('BrowserSession needs exactly one of executablePath and cdpEndpoint');
    this.options = options;
    if (options.signal?.aborted) this.isClosed = true;
    else if (options.signal) this.unlinkSignal = onAbort(options.signal, () => void this.dispose());
  }

  /** The URL rules every request passes (http and https only). */
  get policy(): UrlPolicy {
    const network = this.options.network ?? {};
    return { allowHosts: network.allowHosts, blockedHostSuffixes: network.blockedHostSuffixes };
  }

  /** Whether the session is closed (disposed, aborted, or its browser went away). */
  get closed(): boolean {
    return this.isClosed;
  }

  /** Time limits in force. */
  get timeouts(): { launchMs: number; navigationMs: number; actionMs: number } {
    return {
      launchMs: this.options.launchTimeoutMs ?? 30_000,
      navigationMs: this.options.navigationTimeoutMs ?? 30_000,
      actionMs: this.options.actionTimeoutMs ?? 10_000,
    };
  }

  /** Launches or connects now (otherwise the first action does). */
  async start(signal?: AbortSignal): Promise<void> {
    await this.open(signal);
  }

  /**
   * The address where a run viewer shows `runId`'s live page.
   * @throws BrowserError `no_viewer` when the session has no `viewerUrl`.
   */
  streamUrl(runId: string): string {
    const viewer = this.options.viewerUrl;
    if (viewer === undefined)
      throw new BrowserError(
        'no_viewer',
        'No run viewer is attached to this browser session (option viewerUrl)',
      );
    return typeof viewer === 'string' ? viewer : viewer(runId);
  }

  /**
   * Runs `fn` on the current page under the session's guards: a time limit,
   * the call's abort, the page's death and dialogs; reports a `browser_action`
   * event and streams frames to `ctx.emit` meanwhile. For custom browser tools.
   * @throws BrowserError of the kind that stopped it; AbortError when `ctx.signal` aborts.
   */
  async act<T>(
    ctx: BrowserActionContext,
    action: { name: string; target?: string },
    fn: (page: Page) => Promise<T>,
  ): Promise<BrowserActionReport<T>> {
    const watched = await this.currentPage(ctx.signal);
    const blocked: BlockedRequest[] = [];
    const dialogsBefore = watched.dialogs.length;
    const downloadsBefore = watched.downloads.length;
    this.actionBlocked = blocked;
    const cast = this.cast;
    const framesBefore = cast?.emitted ?? 0;
    if (cast) cast.target = ctx.emit;
    const what = `${action.name}${action.target ? ` ${action.target}` : ''}`;
    const death = Promise.race([watched.death, this.live?.gone ?? watched.death]);
    let ok = false;
    try {
      const value = await withDeadline(fn(watched.page), {
        what,
        timeoutMs: ctx.timeoutMs ?? this.timeouts.actionMs,
        signal: ctx.signal,
        death,
      }).catch((error: unknown) => {
        throw withBlocked(browserErrorOf(error, what), blocked);
      });
      // A round trip to the page: events the browser sent before its answer (a dialog the action
      // opened) have been handled by then, so the check below does not race them.
      await withDeadline(
        watched.page.evaluate(() => 0),
        { what: 'settling', timeoutMs: SETTLE_MS, death },
      ).catch(() => {});
      const dialogs = watched.dialogs.slice(dialogsBefore);
      if (dialogs.length > 0)
        throw new BrowserError(
          'dialog',
          `The page opened ${dialogs.join(', ')} during ${what}; it was dismissed`,
        );
      // A download the action started is saved (each save is bounded) before the action reports.
      if (watched.saving.size > 0) await Promise.all(watched.saving);
      // The screencast sends frames only when the page paints: the action's end state is always shown.
      if (cast && cast.emitted === framesBefore) await cast.capture().catch(() => {});
      ok = true;
      return { value, url: pageUrl(watched), blocked, downloads: watched.downloads.slice(downloadsBefore) };
    } finally {
      this.actionBlocked = undefined;
      if (cast) cast.target = undefined;
      ctx.emit?.emit('browser_action', {
        action: action.name,
        url: pageUrl(watched),
        ...(action.target === undefined ? {} : { target: action.target }),
        ok,
        ...(blocked.length > 0 ? { blocked: blocked.map(({ url, rule }) => ({ url, rule })) } : {}),
      });
    }
  }

  /** Closes the browser (a launched one) or this session's context (over CDP). Idempotent. */
  async dispose(): Promise<void> {
    this.isClosed = true;
    this.unlinkSignal?.();
    const live = this.live ?? (await this.starting?.catch(() => undefined));
    if (!live) return;
    this.live = undefined;
    await this.cast?.stop();
    const closing = live.context.close().then(() => live.browser.close());
    // A browser that does not answer is left to playwright, which kills what it launched at exit.
    await withDeadline(closing, { what: 'closing the browser', timeoutMs: 10_000 }).catch(() => {});
    await live.proxy?.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.dispose();
  }

  /** The page actions go to: the last one, or a fresh one when there is none or it died. */
  private async currentPage(signal?: AbortSignal): Promise<WatchedPage> {
    const live = await this.open(signal);
    if (this.watched && !this.watched.dead()) return this.watched;
    const page = await withDeadline(live.context.newPage(), {
      what: 'opening a page',
      timeoutMs: this.timeouts.actionMs,
      signal,
      death: live.gone,
    }).catch((error: unknown) => {
      throw browserErrorOf(error, 'opening a page');
    });
    page.setDefaultTimeout(this.timeouts.actionMs);
    page.setDefaultNavigationTimeout(this.timeouts.navigationMs);
    this.watched = watchPage(page, {
      downloadsDir: this.options.downloadsDir,
      timeoutMs: this.timeouts.navigationMs,
    });
    // The previous page is dead: its screencast went with it, nothing to stop.
    this.cast = undefined;
    if (this.options.stream !== false)
      this.cast = await withDeadline(Screencast.start(live.context, page, this.options.stream ?? {}), {
        what: 'starting the live view',
        timeoutMs: this.timeouts.actionMs,
        signal,
      }).catch(() => undefined);
    return this.watched;
  }

  private open(signal?: AbortSignal): Promise<Live> {
    if (this.isClosed) return Promise.reject(new BrowserError('closed', 'The browser session is closed'));
    this.starting ??= this.launch();
    return withDeadline(this.starting, {
      what: 'starting the browser',
      timeoutMs: this.timeouts.launchMs + 1_000,
      signal,
    });
  }

  private async launch(): Promise<Live> {
    const opened: Partial<Live> = {};
    try {
      const live = await this.connect(opened);
      if (this.isClosed) throw new BrowserError('closed', 'The browser session was closed while starting');
      this.live = live;
      return live;
    } catch (error) {
      await opened.browser?.close().catch(() => {});
      await opened.proxy?.close();
      if (error instanceof BrowserError) throw error;
      throw new BrowserError('launch', `The browser did not start: ${errorMessage(error)}`, { cause: error });
    }
  }

  private async connect(opened: Partial<Live>): Promise<Live> {
    const { chromium } = await importPlaywright();
    const network = this.options.network ?? {};
    const onBlocked = (blocked: BlockedRequest) => {
      this.actionBlocked?.push(blocked);
      network.onBlocked?.(blocked);
    };
    const timeout = this.timeouts.launchMs;
    if (this.options.cdpEndpoint) {
      opened.browser = await chromium.connectOverCDP(this.options.cdpEndpoint, { timeout });
    } else {
      opened.proxy = await startGuardProxy({
        policy: this.policy,
        resolve: network.resolve ?? systemResolver,
        onBlocked,
        connectTimeoutMs: this.timeouts.navigationMs,
      });
      opened.browser = await chromium.launch({
        executablePath: this.options.executablePath,
        headless: this.options.headless ?? true,
        // Chromium refuses to start as root with its sandbox on (containers, CI).
        args: [
          ...DEFAULT_CHROMIUM_ARGS,
          ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
          ...(this.options.args ?? []),
        ],
        proxy: { server: opened.proxy.server },
        timeout,
      });
    }
    const browser = opened.browser;
    const gone = new Promise<never>((_, reject) =>
      browser.once('disconnected', () => {
        this.isClosed = true;
        reject(new BrowserError('closed', 'The browser closed or disconnected'));
      }),
    );
    gone.catch(() => {});
    const context = await browser.newContext({
      viewport: this.options.viewport ?? { width: 1280, height: 800 },
      acceptDownloads: this.options.downloadsDir !== undefined,
      serviceWorkers: 'block',
    });
    await guardContext(context, {
      policy: { ...this.policy, resolve: network.resolve ?? systemResolver },
      resolveHere: opened.proxy === undefined,
      onBlocked,
      timeoutMs: this.timeouts.actionMs,
    });
    return { browser, context, proxy: opened.proxy, gone };
  }
}

/** A `blocked` failure names the request the rules refused during the action. */
function withBlocked(error: Error, blocked: readonly BlockedRequest[]): Error {
  const first = blocked[0];
  if (!(error instanceof BrowserError) || error.kind !== 'blocked' || error.rule || !first) return error;
  return new BrowserError('blocked', `${error.message}: ${first.url} (${first.reason})`, {
    url: first.url,
    rule: first.rule,
    cause: error,
  });
}

function pageUrl(watched: WatchedPage): string {
  return watched.dead() ? '' : watched.page.url();
}

async function importPlaywright(): Promise<typeof import('playwright-core')> {
  try {
    return await import('playwright-core');
  } catch (error) {
    throw new BrowserError(
      'launch',
      'tandem-agents/browser needs the optional peer dependency playwright-core (npm install playwright-core)',
      { cause: error },
    );
  }
}
