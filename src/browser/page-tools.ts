/**
 * The tools that act on the page as a whole: navigate, snapshot, screenshot,
 * keys, waits, and the live view's address.
 * @module
 */
import { z } from 'zod/v4';
import { defineTool, type Tool } from '../tools/types.js';
import { BrowserError } from './errors.js';
import { navigate } from './navigate.js';
import type { ToolKit } from './tool-kit.js';

/** `browser_navigate`. */
export function navigateTool(kit: ToolKit): Tool {
  return defineTool({
    ...kit.common('browser_navigate', kit.session.timeouts.navigationMs),
    description: 'Open a web page (http or https URL) in the browser and wait until it has loaded.',
    parameters: z.object({ url: z.string().describe('Absolute http(s) URL') }),
    execute: async ({ url }, ctx) => {
      const report = await navigate(kit.session, url, kit.ctxOf(ctx));
      return kit.summary(report, { title: report.value.title, status: report.value.status });
    },
  });
}

/** `browser_snapshot`. */
export function snapshotTool(kit: ToolKit): Tool {
  return defineTool({
    ...kit.common('browser_snapshot', kit.actionMs),
    description:
      'The page as an accessibility tree in text. Elements carry refs like [ref=e12]; pass a ref to browser_click or browser_type.',
    parameters: z.object({}),
    execute: async (_args, ctx) => {
      const report = await kit.session.act(kit.ctxOf(ctx), { name: 'browser_snapshot' }, async (page) => ({
        title: await page.title(),
        tree: await page.ariaSnapshot({ mode: 'ai', timeout: kit.actionMs }),
      }));
      return `Page: ${report.url}\nTitle: ${report.value.title}\n${report.value.tree}`;
    },
  });
}

/** `browser_screenshot`: a PNG image part, so a vision model sees the page. */
export function screenshotTool(kit: ToolKit): Tool {
  return defineTool({
    ...kit.common('browser_screenshot', kit.actionMs),
    description: 'A PNG screenshot of the page (the viewport, or the whole page with fullPage).',
    parameters: z.object({ fullPage: z.boolean().optional() }),
    execute: async ({ fullPage }, ctx) => {
      const report = await kit.session.act(kit.ctxOf(ctx), { name: 'browser_screenshot' }, (page) =>
        page.screenshot({ type: 'png', fullPage: fullPage ?? false, timeout: kit.actionMs }),
      );
      const data = new Uint8Array(report.value);
      return {
        content: `Screenshot of ${report.url}`,
        attachments: [{ type: 'image' as const, mediaType: 'image/png', data }],
      };
    },
  });
}

/** `browser_press_key`. */
export function pressKeyTool(kit: ToolKit): Tool {
  return defineTool({
    ...kit.common('browser_press_key', kit.actionMs),
    description: 'Press a key or chord on the focused element: Enter, Tab, Escape, ArrowDown, Control+A …',
    parameters: z.object({ key: z.string().min(1).max(40) }),
    execute: async ({ key }, ctx) =>
      kit.summary(
        await kit.session.act(kit.ctxOf(ctx), { name: 'browser_press_key', target: key }, (page) =>
          page.keyboard.press(key),
        ),
      ),
  });
}

/** Longest wait a model may ask for. */
const MAX_WAIT_MS = 60_000;

/** `browser_wait`: until a selector or a text is visible, within the call's limit. */
export function waitTool(kit: ToolKit): Tool {
  return defineTool({
    ...kit.common('browser_wait', MAX_WAIT_MS),
    description: 'Wait until an element (CSS selector) or a text is visible on the page, up to timeoutMs.',
    parameters: z.object({
      selector: z.string().optional(),
      text: z.string().optional(),
      timeoutMs: z.number().int().positive().max(MAX_WAIT_MS).optional(),
    }),
    execute: async ({ selector, text, timeoutMs }, ctx) => {
      if ((selector === undefined) === (text === undefined))
        throw new BrowserError('target', 'browser_wait needs exactly one of selector and text');
      const limit = timeoutMs ?? kit.actionMs;
      const label = selector ?? `text "${text}"`;
      const report = await kit.session.act(
        { ...kit.ctxOf(ctx), timeoutMs: limit + 1_000 },
        { name: 'browser_wait', target: label },
        (page) =>
          (selector ? page.locator(selector) : page.getByText(text ?? ''))
            .first()
            .waitFor({ state: 'visible', timeout: limit }),
      );
      return kit.summary(report, { found: label });
    },
  });
}

/** `browser_get_stream_url`. */
export function streamUrlTool(kit: ToolKit): Tool {
  return defineTool({
    ...kit.common('browser_get_stream_url', kit.actionMs),
    description: 'The address of the live view of the browser page (the run viewer), to show it to the user.',
    parameters: z.object({}),
    execute: (_args, ctx) => kit.session.streamUrl(ctx.runId),
  });
}
