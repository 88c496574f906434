/**
 * The tools that act on one element, by a ref from the snapshot or a CSS
 * selector: click, type, and scroll (by pixels, or an element into view).
 * @module
 */
import { z } from 'zod/v4';
import { defineTool, type Tool } from '../tools/types.js';
import type { Target } from './target.js';
import { targetSchema } from './target.js';
import type { ToolKit } from './tool-kit.js';

/** `browser_click`. */
export function clickTool(kit: ToolKit): Tool {
  return defineTool({
    ...kit.common('browser_click', kit.actionMs),
    description: 'Click an element, by a ref from browser_snapshot or a CSS selector.',
    parameters: targetSchema,
    execute: async (target, ctx) =>
      kit.summary(
        await kit.onTarget({ name: 'browser_click', ctx, target }, (el) =>
          el.click({ timeout: kit.actionMs }),
        ),
      ),
  });
}

/** `browser_type`. */
export function typeTool(kit: ToolKit): Tool {
  return defineTool({
    ...kit.common('browser_type', kit.actionMs),
    description:
      'Type text into an input (replacing its value), by ref or CSS selector; submit presses Enter afterwards.',
    parameters: targetSchema.extend({ text: z.string(), submit: z.boolean().optional() }),
    execute: async ({ text, submit, ...target }, ctx) =>
      kit.summary(
        await kit.onTarget({ name: 'browser_type', ctx, target }, async (el) => {
          await el.fill(text, { timeout: kit.actionMs });
          if (submit) await el.press('Enter', { timeout: kit.actionMs });
        }),
      ),
  });
}

/** `browser_scroll`. */
export function scrollTool(kit: ToolKit): Tool {
  return defineTool({
    ...kit.common('browser_scroll', kit.actionMs),
    description:
      'Scroll the page by pixels in a direction, or scroll an element (ref or selector) into view.',
    parameters: targetSchema.partial().extend({
      direction: z.enum(['up', 'down', 'left', 'right']).optional(),
      pixels: z.number().int().positive().max(20_000).optional(),
    }),
    execute: async ({ direction = 'down', pixels = 600, ...target }, ctx) => {
      if (target.ref !== undefined || target.selector !== undefined) {
        const report = await kit.onTarget({ name: 'browser_scroll', ctx, target: target as Target }, (el) =>
          el.scrollIntoViewIfNeeded({ timeout: kit.actionMs }),
        );
        return kit.summary(report);
      }
      const [dx, dy] = { up: [0, -pixels], down: [0, pixels], left: [-pixels, 0], right: [pixels, 0] }[
        direction
      ];
      const report = await kit.session.act(
        kit.ctxOf(ctx),
        { name: 'browser_scroll', target: direction },
        // scrollBy with `instant` lands before it returns; a wheel event scrolls later, on the compositor,
        // so the position read after it depended on the machine's load.
        (page) =>
          page.evaluate(
            ([left, top]) => {
              window.scrollBy({ left, top, behavior: 'instant' });
              return { x: Math.round(window.scrollX), y: Math.round(window.scrollY) };
            },
            [dx ?? 0, dy ?? 0] as const,
          ),
      );
      return kit.summary(report, { scroll: report.value });
    },
  });
}
