/**
 * The browser tools of seed 002 plus a page snapshot and waits, over one
 * {@link BrowserSession}. All are `risky` (approvals apply when configured)
 * and never parallel-safe: one page, one action at a time.
 * @module
 */
import type { Tool } from '../tools/types.js';
import { clickTool, scrollTool, typeTool } from './element-tools.js';
import {
  navigateTool,
  pressKeyTool,
  screenshotTool,
  snapshotTool,
  streamUrlTool,
  waitTool,
} from './page-tools.js';
import type { BrowserSession } from './session.js';
import { type BrowserToolsOptions, toolKit } from './tool-kit.js';

export type { BrowserToolName, BrowserToolsOptions } from './tool-kit.js';

/**
 * The browser tools, acting on `session`'s page: `browser_navigate`,
 * `browser_snapshot`, `browser_screenshot`, `browser_click`, `browser_type`,
 * `browser_press_key`, `browser_scroll`, `browser_wait`, `browser_get_stream_url`.
 */
export function browserTools(session: BrowserSession, options: BrowserToolsOptions = {}): Tool[] {
  const kit = toolKit(session, options);
  return [
    navigateTool(kit),
    snapshotTool(kit),
    screenshotTool(kit),
    clickTool(kit),
    typeTool(kit),
    pressKeyTool(kit),
    scrollTool(kit),
    waitTool(kit),
    streamUrlTool(kit),
  ];
}
