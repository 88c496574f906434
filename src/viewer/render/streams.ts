/**
 * Text and reasoning as the models stream them, one block per agent and
 * step, the one receiving deltas marked live.
 * @module
 */
import type { RunProgress, TextStream } from '../../state/progress-types.js';
import type { RenderContext } from './context.js';
import { details, h } from './dom.js';
import { count } from './format.js';

/** Characters of each stream drawn: the tail, since the newest text is what moves. */
const TAIL = 6_000;

/** The streams section, or nothing before the first delta; `streaming` marks the active stream live. */
export function renderStreams(
  progress: RunProgress,
  streaming: boolean,
  ctx: RenderContext,
): HTMLElement | null {
  const keys = Object.keys(progress.streams);
  if (keys.length === 0) return null;
  const live = streaming && progress.status === 'running' ? progress.activeStream : undefined;
  return h(
    'section',
    { class: 'tv-card tv-streams' },
    h('h2', null, 'Model output'),
    keys.map((key) => renderStream({ key, stream: progress.streams[key]!, live: key === live }, ctx)),
  );
}

/** One stream to draw: its key in `progress.streams`, the stream, and whether it is receiving deltas. */
interface StreamBlock {
  key: string;
  stream: TextStream;
  live: boolean;
}

function renderStream(block: StreamBlock, ctx: RenderContext): HTMLElement {
  const { key, stream, live } = block;
  const who = [stream.agent ?? 'run', stream.stepId ? `step ${stream.stepId}` : '']
    .filter(Boolean)
    .join(' · ');
  return h(
    'div',
    { class: `tv-stream${live ? ' tv-live' : ''}`, attrs: { 'data-stream': key } },
    h('h3', null, who, live ? h('span', { class: 'tv-chip tv-pulse' }, 'streaming') : null),
    stream.reasoning
      ? details(ctx.open, {
          key: `reasoning:${key}`,
          summary: `Reasoning (${count(stream.reasoning.length)} characters)`,
          body: () => h('pre', { class: 'tv-pre tv-reasoning' }, tail(stream.reasoning)),
        })
      : null,
    stream.text ? h('pre', { class: 'tv-pre tv-text' }, tail(stream.text)) : null,
    stream.droppedChars > 0
      ? h('p', { class: 'tv-note' }, `${count(stream.droppedChars)} earlier characters were not kept.`)
      : null,
  );
}

function tail(text: string): string {
  return text.length > TAIL ? `…${text.slice(text.length - TAIL)}` : text;
}
