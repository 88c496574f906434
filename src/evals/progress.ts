/**
 * Progress as cases finish: a bar redrawn in place on a terminal, one line
 * per case otherwise (CI logs, pipes), so logs stay readable.
 * @module
 */

import { fmt } from './report/compare.js';
import type { CaseResult } from './types.js';

/** Where progress is written: a stream with an optional `isTTY`. */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** One line about a finished case: mark, id, mean score per scorer, latency of its first trial. */
export function caseLine(result: CaseResult, progress: { done: number; total: number }): string {
  const passed = Object.values(result.scores).every((s) => s.passAtK >= 1);
  const scores = Object.entries(result.scores)
    .map(([name, s]) => `${name} ${fmt(s.mean)}`)
    .join(' · ');
  const latency = result.trials[0] ? ` (${result.trials[0].latencyMs} ms)` : '';
  return `${passed ? '✓' : '✗'} [${progress.done}/${progress.total}] ${result.id}  ${scores}${latency}\n`;
}

/**
 * An `onCase` for `evaluate` writing progress to `stream` (default stderr):
 * a bar on a TTY, one line per case otherwise.
 */
export function consoleProgress(stream: ProgressStream = process.stderr) {
  const width = 30;
  return (result: CaseResult, progress: { done: number; total: number }): void => {
    if (!stream.isTTY) {
      stream.write(caseLine(result, progress));
      return;
    }
    const filled = Math.round((progress.done / Math.max(1, progress.total)) * width);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
    const end = progress.done === progress.total ? '\n' : '';
    stream.write(`\r\x1b[2K${bar} ${progress.done}/${progress.total} ${result.id.slice(0, 40)}${end}`);
  };
}
