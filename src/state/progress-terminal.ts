/**
 * The progress reducer's part for live terminals and workspace changes: a
 * command's output kept as a bounded tail on its tool call, and the paths
 * tools changed.
 * @module
 */
import type { TandemEvent } from '../core/events.js';
import type { TerminalView, ToolActivity } from './progress-types.js';

type TerminalEvent =
  | TandemEvent<'terminal_command'>
  | TandemEvent<'terminal_output'>
  | TandemEvent<'terminal_error'>
  | TandemEvent<'terminal_complete'>;

/** Applies a `terminal_*` event to its tool call; events of a call the list no longer holds are dropped. */
export function applyTerminal(tools: ToolActivity[], event: TerminalEvent, maxChars: number): ToolActivity[] {
  let i = tools.length - 1;
  while (i >= 0 && tools[i]!.id !== event.id) i--;
  if (i < 0) return tools;
  const call = tools[i]!;
  const terminal = nextTerminal(call.terminal, event, maxChars);
  const copy = tools.slice();
  copy[i] = { ...call, terminal };
  return copy;
}

function nextTerminal(prev: TerminalView | undefined, event: TerminalEvent, maxChars: number): TerminalView {
  switch (event.type) {
    case 'terminal_command': {
      const view: TerminalView = { command: event.command, output: '', droppedChars: 0, isStreaming: true };
      if (event.language) view.language = event.language;
      return view;
    }
    case 'terminal_output':
    case 'terminal_error':
      return append(
        prev ?? { command: '', output: '', droppedChars: 0, isStreaming: true },
        event.text,
        maxChars,
      );
    case 'terminal_complete':
      return {
        ...(prev ?? { command: '', output: '', droppedChars: 0 }),
        isStreaming: false,
        exitCode: event.exitCode,
        timedOut: event.timedOut,
      };
  }
}

/** Past the cap the oldest quarter goes at once, so a million tiny deltas cost O(1) each, amortised. */
function append(view: TerminalView, text: string, maxChars: number): TerminalView {
  let output = view.output + text;
  let droppedChars = view.droppedChars;
  if (output.length > maxChars) {
    const cut = output.length - Math.floor(maxChars * 0.75);
    output = output.slice(cut);
    droppedChars += cut;
  }
  return { ...view, output, droppedChars };
}

/** `paths` moved to the end of `list` (each once), keeping the newest `max`. */
export function touchPaths(list: string[], paths: readonly string[], max: number): string[] {
  const next = list.filter((p) => !paths.includes(p));
  next.push(...paths);
  return next.length > max ? next.slice(next.length - max) : next;
}
