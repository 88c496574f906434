/**
 * `browser_navigate`'s work: the URL is judged by the network rules before
 * the browser sees it (so `file:`, `chrome:`, `data:` and `javascript:` never
 * load), then loaded under the session's guards; a load the guard proxy
 * refused comes back as a `blocked` error naming the rule.
 * @module
 */
import { inspectUrl } from '../safety/guardrails/url-check.js';
import { BrowserError } from './errors.js';
import { BLOCKED_HEADER } from './proxy.js';
import type { BrowserActionContext, BrowserActionReport, BrowserSession } from './session.js';

/** What a load answered. */
export interface NavigationResult {
  title: string;
  /** HTTP status of the page's final response (none for a same-document navigation). */
  status?: number;
}

/**
 * Loads `url` in the session's page and waits for its `load` event.
 * @throws BrowserError `blocked` (a refused URL or redirect), `timeout`, `crashed`, `closed`, `dialog`.
 */
export async function navigate(
  session: BrowserSession,
  url: string,
  ctx: BrowserActionContext,
): Promise<BrowserActionReport<NavigationResult>> {
  const verdict = inspectUrl(url, session.policy);
  if (!verdict.ok)
    throw new BrowserError('blocked', `Navigation refused: ${verdict.reason}`, { url, rule: verdict.rule });
  const timeoutMs = session.timeouts.navigationMs;
  return session.act({ ...ctx, timeoutMs }, { name: 'browser_navigate', target: url }, async (page) => {
    const response = await page.goto(url, { timeout: timeoutMs, waitUntil: 'load' });
    const rule = response?.headers()[BLOCKED_HEADER];
    if (rule)
      throw new BrowserError(
        'blocked',
        `Navigation to ${response?.url()} refused by the network rules (${rule})`,
        {
          url: response?.url(),
          rule,
        },
      );
    return { title: await page.title(), ...(response ? { status: response.status() } : {}) };
  });
}
