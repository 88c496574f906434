/**
 * The element an action is for: a ref from the page snapshot (`e12`, the
 * accessibility tree's `[ref=e12]`) or a CSS selector.
 * @module
 */
import type { Locator, Page } from 'playwright-core';
import { z } from 'zod/v4';
import { BrowserError } from './errors.js';

/** A ref or a selector; exactly one. */
export interface Target {
  ref?: string;
  selector?: string;
}

/** The target parameters of click, type and scroll. */
export const targetSchema = z.object({
  ref: z.string().optional().describe('Element ref from browser_snapshot, e.g. e12'),
  selector: z.string().optional().describe('CSS selector, when there is no ref'),
});

/** How events and errors name the target. */
export function targetLabel(target: Target): string {
  return target.ref !== undefined ? `ref=${target.ref}` : (target.selector ?? '');
}

/**
 * The locator of `target`. A selector that matches several elements fails
 * the action (`target`) rather than act on a guess.
 * @throws BrowserError `target` when neither or both are given.
 */
export function locate(page: Page, target: Target): Locator {
  if ((target.ref === undefined) === (target.selector === undefined))
    throw new BrowserError('target', 'Give exactly one of ref (from browser_snapshot) and selector');
  if (target.ref !== undefined) return page.getByRef(target.ref.replace(/^\[?ref=|\]$/g, ''));
  return page.locator(target.selector ?? '');
}
