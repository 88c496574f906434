/**
 * What every browser tool shares: its common definition fields (risky, not
 * parallel-safe, a time limit, approval), the action context of a call, and
 * the JSON summary the model reads after an action.
 * @module
 */
import type { NeedsApproval, ToolContext } from '../tools/types.js';
import type { BrowserActionContext, BrowserActionReport, BrowserSession } from './session.js';
import { locate, type Target, targetLabel } from './target.js';

/** Names of the browser tools. */
export type BrowserToolName =
  | 'browser_navigate'
  | 'browser_snapshot'
  | 'browser_screenshot'
  | 'browser_click'
  | 'browser_type'
  | 'browser_press_key'
  | 'browser_scroll'
  | 'browser_wait'
  | 'browser_get_stream_url';

/** Options of `browserTools`. */
export interface BrowserToolsOptions {
  /** Which tools need a human's approval before they run: all (`true`), or these names. */
  needsApproval?: boolean | readonly BrowserToolName[];
}

// A backstop over the session's own limits, which fire first with a clearer error.
const MARGIN_MS = 5_000;

/** The session and the helpers the tool definitions share. */
export interface ToolKit {
  session: BrowserSession;
  /** The session's action time limit. */
  actionMs: number;
  common(
    name: BrowserToolName,
    timeoutMs: number,
  ): {
    name: BrowserToolName;
    risk: 'risky';
    parallelSafe: false;
    timeoutMs: number;
    needsApproval?: NeedsApproval;
  };
  ctxOf(ctx: ToolContext): BrowserActionContext;
  summary(report: BrowserActionReport<unknown>, extra?: Record<string, unknown>): string;
  /** Runs the tool's action `fn` on the element `action.target` names. */
  onTarget(
    action: TargetAction,
    fn: (locator: ReturnType<typeof locate>) => Promise<unknown>,
  ): Promise<BrowserActionReport<unknown>>;
}

/** One call of a tool that acts on an element: the tool, the call's context and the element. */
export interface TargetAction {
  name: BrowserToolName;
  ctx: ToolContext;
  target: Target;
}

/** The kit of `session`'s tools. */
export function toolKit(session: BrowserSession, options: BrowserToolsOptions): ToolKit {
  const setting = options.needsApproval;
  const ctxOf = (ctx: ToolContext): BrowserActionContext => ({ signal: ctx.signal, emit: ctx.emit });
  const actionMs = session.timeouts.actionMs;
  return {
    session,
    actionMs,
    common: (name, timeoutMs) => ({
      name,
      risk: 'risky',
      parallelSafe: false,
      timeoutMs: timeoutMs + MARGIN_MS,
      ...(setting === undefined
        ? {}
        : { needsApproval: typeof setting === 'boolean' ? setting : setting.includes(name) }),
    }),
    ctxOf,
    summary: (report, extra) =>
      JSON.stringify({
        url: report.url,
        ...extra,
        ...(report.blocked.length > 0
          ? { blocked: report.blocked.map(({ url, rule }) => ({ url, rule })) }
          : {}),
        ...(report.downloads.length > 0 ? { downloads: report.downloads } : {}),
      }),
    onTarget: ({ name, ctx, target }, fn) =>
      session.act({ ...ctxOf(ctx), timeoutMs: actionMs }, { name, target: targetLabel(target) }, (page) =>
        fn(locate(page, target)),
      ),
  };
}
