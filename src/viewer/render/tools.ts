/**
 * Tool calls in call order, one collapsible row each: name, arguments on one
 * line, state and duration; opened, the whole arguments and the output (long
 * output cut, with a button to show all of it).
 * @module
 */
import type { TerminalView, ToolActivity } from '../../state/progress-types.js';
import type { RenderContext } from './context.js';
import { details, h } from './dom.js';
import { duration, oneLine, pretty } from './format.js';
import { longText } from './long-text.js';

const MARK: Record<ToolActivity['status'], string> = { running: '…', succeeded: '✓', failed: '✗' };
/** Characters of output shown before "Show all". */
const OUTPUT_PREVIEW = 1_200;

/** The tool-calls section. */
export function renderTools(tools: readonly ToolActivity[], ctx: RenderContext): HTMLElement {
  const running = tools.filter((t) => t.status === 'running').length;
  return h(
    'section',
    { class: 'tv-card tv-tools' },
    h(
      'h2',
      null,
      'Tool calls',
      h('span', { class: 'tv-count' }, `${tools.length}${running ? ` · ${running} running` : ''}`),
    ),
    tools.length === 0
      ? h('p', { class: 'tv-empty' }, 'No tool calls yet.')
      : h(
          'div',
          { class: 'tv-rows' },
          tools.map((tool) => renderTool(tool, ctx)),
        ),
  );
}

function renderTool(tool: ToolActivity, ctx: RenderContext): HTMLElement {
  const summary = [
    h('span', { class: `tv-mark tv-tool-${tool.status}` }, MARK[tool.status]),
    h('span', { class: 'tv-tool-name' }, tool.name),
    h('span', { class: 'tv-tool-args' }, oneLine(tool.args ?? {}, 80)),
    tool.stepId ? h('span', { class: 'tv-chip' }, tool.stepId) : null,
    h('span', { class: 'tv-time' }, tool.status === 'running' ? 'running' : duration(tool.durationMs)),
  ];
  const body = () => [
    h('h3', null, 'Arguments'),
    longText({ key: `args:${tool.id}`, text: pretty(tool.args ?? {}), limit: 2_000 }, ctx),
    tool.terminal ? renderTerminal(tool.terminal) : null,
    tool.output === undefined
      ? h('p', { class: 'tv-empty' }, 'Waiting for the result…')
      : [
          h('h3', null, tool.isError ? 'Error' : 'Output'),
          longText(
            { key: `out:${tool.id}`, text: tool.output, limit: OUTPUT_PREVIEW, total: tool.outputChars },
            ctx,
          ),
          tool.truncated ? h('p', { class: 'tv-note' }, 'The model saw a truncated output.') : null,
        ],
  ];
  return details(
    ctx.open,
    { key: `tool:${tool.id}`, summary, body },
    { class: `tv-row tv-tool tv-tool-${tool.status}`, attrs: { 'data-tool': tool.name } },
  );
}

/** A command and its output so far, as the terminal printed it; text, never markup. */
function renderTerminal(terminal: TerminalView): HTMLElement[] {
  const state = terminal.isStreaming
    ? 'live'
    : terminal.timedOut
      ? 'timed out'
      : `exit ${terminal.exitCode ?? 'killed'}`;
  const dropped = terminal.droppedChars > 0 ? `[… ${terminal.droppedChars} earlier characters]\n` : '';
  return [
    h(
      'h3',
      null,
      'Terminal',
      h('span', { class: `tv-chip tv-terminal-${terminal.isStreaming ? 'live' : 'done'}` }, state),
    ),
    h('pre', { class: 'tv-terminal' }, `$ ${terminal.command}\n${dropped}${terminal.output}`),
  ];
}
