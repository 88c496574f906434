/**
 * `tandem-agents/browser`: browser automation on Chromium for agents (Node;
 * optional peer `playwright-core`). A {@link BrowserSession} launches
 * Chromium (or connects over CDP) with the network rules on every request;
 * {@link browserTools} gives the model navigate, snapshot, screenshot, click,
 * type, keys, scroll, waits and the live view's address.
 *
 * ```ts
 * import { BrowserSession, browserTools } from 'tandem-agents/browser';
 *
 * const browser = new BrowserSession({ executablePath: '/usr/bin/chromium' });
 * const executor = new Executor({ model, tools: browserTools(browser) });
 * try {
 *   await executor.run('Find the opening hours on https://example.org').result;
 * } finally {
 *   await browser.dispose();
 * }
 * ```
 * @module
 */
export { BrowserError, type BrowserErrorKind } from './errors.js';
export type { NavigationResult } from './navigate.js';
export type { BlockedRequest } from './proxy.js';
export {
  type BrowserActionContext,
  type BrowserActionReport,
  type BrowserNetworkOptions,
  BrowserSession,
  type BrowserSessionOptions,
  DEFAULT_CHROMIUM_ARGS,
} from './session.js';
export type { BrowserStreamOptions } from './stream.js';
export type { Target } from './target.js';
export { type BrowserToolName, type BrowserToolsOptions, browserTools } from './tools.js';
