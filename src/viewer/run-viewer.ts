/**
 * `<tandem-run-viewer>`: one run, live from an SSE URL or replayed from
 * events or a saved state. Framework-free; renders in its light DOM with the
 * `tv-` classes of the viewer's stylesheet.
 *
 * ```html
 * <tandem-run-viewer src="/runs/run_1/events" answer-url="/runs/run_1/interrupts/" token="…"></tandem-run-viewer>
 * ```
 *
 * Events are folded at once and drawn at most once per animation frame; a
 * section is rebuilt only when the part of the state it shows changed (the
 * progress reducer keeps unchanged parts identical), so open rows, expanded
 * outputs and a half-typed answer survive the stream.
 * @module
 */
import type { InterruptView, TandemEvent } from '../core/events.js';
import type { RunState } from '../state/run-state.js';
import { applyViewerEvent, initialViewerState, type ViewerState, viewerStateOf } from './model.js';
import { TOKEN_HEADER } from './protocol.js';
import { renderApprovals } from './render/approvals.js';
import { renderBrowser } from './render/browser.js';
import type { Answer, AnswerOutcome, RenderContext } from './render/context.js';
import { h, replace } from './render/dom.js';
import { renderFlow } from './render/flow.js';
import { renderPlan } from './render/plan.js';
import { renderStreams } from './render/streams.js';
import { renderHeader, renderOutcome, type SourceInfo } from './render/summary.js';
import { renderTools } from './render/tools.js';
import { renderWaterfall } from './render/waterfall.js';
import { viewerStateFromRunState } from './replay.js';
import { emptyStats, openEventStream, type StreamStats, type StreamStatus } from './sse-client.js';

/** The event the element dispatches (bubbling) when its run's terminal event arrives. */
export const RUN_ENDED = 'tandem-run-ended';

/** The base class: `HTMLElement` in a browser, an empty class where there is none (Node imports this module too). */
const Base = ((globalThis as { HTMLElement?: typeof HTMLElement }).HTMLElement ??
  class {}) as typeof HTMLElement;

interface Section {
  el: HTMLElement;
  deps: (state: ViewerState) => readonly unknown[];
  draw: (state: ViewerState) => HTMLElement | null;
  last?: readonly unknown[];
}

const STATUS_LABEL: Record<StreamStatus, SourceInfo> = {
  connecting: { label: 'connecting…', tone: 'warn' },
  open: { label: 'live', tone: 'ok' },
  reconnecting: { label: 'reconnecting…', tone: 'warn' },
  ended: { label: 'live, ended', tone: '' },
  closed: { label: 'disconnected', tone: 'bad' },
};

/**
 * What `<tandem-run-viewer>` adds to an element, for TypeScript:
 * `document.querySelector('tandem-run-viewer') as unknown as RunViewerApi`.
 * Its attributes: `src` (the run's SSE URL), `answer-url` (the prefix the
 * interrupt id is appended to) and `token` (the run's answer token).
 */
export interface RunViewerApi {
  /** Replays these events, replacing what is shown and closing a live stream. */
  set events(events: readonly TandemEvent[]);
  /** Shows a saved run state, replacing what is shown and closing a live stream. */
  set runState(state: RunState);
  /** What arrived on the live stream. */
  readonly stats: StreamStats;
  /** The state drawn. */
  readonly viewerState: ViewerState;
  /** Applies one event (e.g. from your own transport). */
  apply(event: TandemEvent): void;
}

/** The `<tandem-run-viewer>` element. */
export class RunViewerElement extends Base implements RunViewerApi {
  static readonly observedAttributes = ['src', 'answer-url', 'token'];
  private state: ViewerState = initialViewerState();
  private streamStats: StreamStats = emptyStats();
  private source: SourceInfo = { label: 'no source', tone: '' };
  private closeStream?: () => void;
  private frame = 0;
  private sections: Section[] = [];
  private readonly ctx: RenderContext = {
    open: new Set(),
    expanded: new Set(),
    sent: new Map(),
    invalidate: () => this.invalidate(),
  };

  /** What arrived on the live stream: frames, duplicates, gaps, reconnects. */
  get stats(): StreamStats {
    return { ...this.streamStats };
  }

  /** The state drawn (the progress and the model-call timings). */
  get viewerState(): ViewerState {
    return this.state;
  }

  /** Replays `events` (any order; repeats ignored), replacing what is shown and closing a live stream. */
  set events(events: readonly TandemEvent[]) {
    this.stop();
    this.state = viewerStateOf([...events].sort((a, b) => a.seq - b.seq));
    this.source = { label: `replay of ${events.length} events`, tone: '' };
    this.schedule();
  }

  /** Shows a saved run state (tools, text and timings are not in a state), closing a live stream. */
  set runState(state: RunState) {
    this.stop();
    this.state = viewerStateFromRunState(state);
    this.source = { label: `saved state (${state.status})`, tone: '' };
    this.schedule();
  }

  connectedCallback(): void {
    if (this.sections.length === 0) this.build();
    this.refreshAnswering();
    this.connect();
    this.schedule();
  }

  disconnectedCallback(): void {
    this.stop();
    cancelAnimationFrame(this.frame);
    this.frame = 0;
  }

  attributeChangedCallback(name: string, previous: string | null, next: string | null): void {
    if (previous === next || !this.isConnected) return;
    if (name === 'src') {
      this.stop();
      this.state = initialViewerState();
      this.streamStats = emptyStats();
      this.connect();
    }
    this.refreshAnswering();
    this.invalidate();
  }

  /** Applies one event, as the live stream does (e.g. from your own transport). */
  apply(event: TandemEvent): void {
    const next = applyViewerEvent(this.state, event);
    if (next === this.state) return;
    const ended = next.progress.endedAt !== undefined && this.state.progress.endedAt === undefined;
    this.state = next;
    this.schedule();
    if (ended)
      this.dispatchEvent(
        new CustomEvent(RUN_ENDED, { bubbles: true, detail: { runId: next.progress.runId } }),
      );
  }

  private connect(): void {
    const src = this.getAttribute('src');
    if (!src || this.closeStream) return;
    this.closeStream = openEventStream(
      src,
      {
        onEvent: (event) => this.apply(event),
        onStatus: (status) => {
          if (status === 'ended' || status === 'closed') this.closeStream = undefined;
          this.source = { ...STATUS_LABEL[status] };
          this.schedule();
        },
      },
      this.streamStats,
    );
  }

  private stop(): void {
    this.closeStream?.();
    this.closeStream = undefined;
  }

  private refreshAnswering(): void {
    const url = this.getAttribute('answer-url');
    const token = this.getAttribute('token');
    const endpoint = url && token ? { url, token } : undefined;
    this.ctx.answer = endpoint ? (interrupt, answer) => postAnswer(endpoint, interrupt, answer) : undefined;
  }

  private build(): void {
    const p = (s: ViewerState) => s.progress;
    const section = (deps: Section['deps'], draw: Section['draw']): Section => ({
      el: h('div', { class: 'tv-slot' }),
      deps,
      draw,
    });
    const header = section(
      (s) => [p(s).lastSeq, p(s).status, this.source.label],
      (s) => renderHeader(p(s), this.source),
    );
    const approvals = section(
      (s) => [p(s).interrupts, this.ctx.answer],
      (s) => renderApprovals(p(s).interrupts, this.ctx),
    );
    const outcome = section(
      (s) => [p(s).output, p(s).error],
      (s) => renderOutcome(p(s)),
    );
    const plan = section(
      (s) => [p(s).plan, p(s).todo],
      (s) => renderPlan(p(s).plan, p(s).todo, this.ctx),
    );
    const streams = section(
      (s) => [p(s).streams, p(s).status, s.streaming],
      (s) => renderStreams(p(s), s.streaming, this.ctx),
    );
    const tools = section(
      (s) => [p(s).tools],
      (s) => renderTools(p(s).tools, this.ctx),
    );
    const browser = section(
      (s) => [s.browser],
      (s) => renderBrowser(s.browser),
    );
    const flow = section(
      (s) => [
        p(s).stages,
        p(s).routing,
        p(s).handoffs,
        p(s).guardrails,
        p(s).retries,
        p(s).fallbacks,
        p(s).compressions,
        p(s).budget,
      ],
      (s) => renderFlow(p(s)),
    );
    const timing = section(
      (s) => [s.modelCalls, p(s).tools, p(s).endedAt],
      (s) => renderWaterfall(s),
    );
    this.sections = [header, approvals, outcome, plan, streams, tools, browser, flow, timing];
    replace(
      this,
      h(
        'div',
        { class: 'tv-run' },
        header.el,
        approvals.el,
        outcome.el,
        h(
          'div',
          { class: 'tv-grid' },
          h('div', { class: 'tv-main' }, plan.el, streams.el, browser.el, tools.el),
          h('div', { class: 'tv-side' }, flow.el),
        ),
        timing.el,
      ),
    );
  }

  private schedule(): void {
    if (this.frame || !this.isConnected) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  private invalidate(): void {
    for (const s of this.sections) s.last = undefined;
    this.schedule();
  }

  private draw(): void {
    for (const section of this.sections) {
      const deps = section.deps(this.state);
      if (section.last && deps.every((d, i) => d === section.last![i])) continue;
      section.last = deps;
      replace(section.el, section.draw(this.state));
    }
  }
}

/** Where answers go: the `answer-url` prefix and the run's `token`, read from the element's attributes. */
interface AnswerEndpoint {
  url: string;
  token: string;
}

/** Posts an answer to the endpoint's url + the interrupt's id with the run's token; explains a refusal. */
async function postAnswer(
  endpoint: AnswerEndpoint,
  interrupt: InterruptView,
  answer: Answer,
): Promise<AnswerOutcome> {
  const { url, token } = endpoint;
  try {
    const response = await fetch(`${url}${encodeURIComponent(interrupt.id)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token },
      body: JSON.stringify(answer),
      credentials: 'same-origin',
    });
    if (response.ok) return { ok: true, message: 'sent' };
    const body = (await response.json().catch(() => ({}))) as { error?: { message?: string } };
    return {
      ok: false,
      message: body.error?.message ?? `The server refused the answer (${response.status}).`,
    };
  } catch {
    return { ok: false, message: 'The answer could not be sent: the server is unreachable.' };
  }
}
