/**
 * The AG-UI endpoint: a fetch handler (`(Request) => Promise<Response>`, for
 * Next.js routes, Hono, or Node through `toNodeListener`) that reads an
 * AG-UI `RunAgentInput`, runs a tandem agent and streams the run as AG-UI
 * events over Server-Sent Events. Every event is numbered (the SSE `id`), so
 * a client that reconnects with `Last-Event-ID` gets the rest — no gap, no
 * duplicate — from the run's bounded replay buffer (the viewer's `RunLog`).
 * @module
 */
import type { TandemEvent } from '../core/events.js';
import type { Message } from '../core/messages.js';
import type { PausedState } from '../state/paused-state.js';
import type { Session, SessionStore } from '../state/session.js';
import type { Tool } from '../tools/types.js';
import type { AgUiConvertOptions } from './convert.js';
import { AgUiError, type AgUiRunInput, fromAgUiMessages, frontendTools, nameToolResults } from './input.js';
import { answerPaused } from './resume.js';
import { AgUiStreams } from './streams.js';

/** A run the endpoint streams: a `Run` or an `OrchestratorRun`. */
export interface AgUiRun {
  readonly runId: string;
  on(type: '*', listener: (event: TandemEvent) => void): unknown;
  off(type: '*', listener: (event: TandemEvent) => void): unknown;
  readonly result: Promise<{ status: string; state?: PausedState }>;
}

/** What the endpoint runs: an `Executor` or an `Orchestrator`. */
export interface AgUiAgent {
  run(input: string, options: { session?: Session; history?: Message[] }): AgUiRun;
  resume(state: PausedState, options: { session?: Session }): AgUiRun;
}

/** What a per-request agent factory gets: the request, and the frontend's tools as tandem tools. */
export interface AgUiAgentRequest {
  input: AgUiRunInput;
  /** `RunAgentInput.tools` as tandem tools ({@link frontendTools}): add them to the agent's tools. */
  tools: Tool[];
}

/** Options of {@link createAgUiHandler}. */
export interface AgUiHandlerOptions {
  /**
   * The agent, or a factory building one per request — needed for frontend
   * tools, which the factory adds to the agent's own. The agent pauses on
   * interrupts (`safety: { pauseOnInterrupt: true }`) for approvals and
   * frontend tools to reach the client.
   */
  agent: AgUiAgent | ((request: AgUiAgentRequest) => AgUiAgent);
  /** Keeps each thread's conversation (`threadId` → session) instead of trusting the client's messages. */
  sessions?: SessionStore;
  /** Runs kept for reconnects; past it the oldest ended run is forgotten. Default 100. */
  maxRuns?: number;
  /** Events kept per run (the viewer's bounded buffer). Default 100 000. */
  maxEvents?: number;
}

/** The endpoint: `handle` answers `POST` (a `RunAgentInput`) and `GET ?runId=` (a reconnect). */
export interface AgUiHandler {
  handle(request: Request): Promise<Response>;
  /** True while the run (by AG-UI run id) is streaming. */
  isActive(runId: string): boolean;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/** An AG-UI endpoint over a tandem agent. */
export function createAgUiHandler(options: AgUiHandlerOptions): AgUiHandler {
  const maxRuns = options.maxRuns ?? 100;
  const streams = new AgUiStreams({ maxRuns, maxEvents: options.maxEvents ?? 100_000 });
  /** Each thread's paused run, waiting for the request that answers it; bounded like the streams. */
  const paused = new Map<string, PausedState>();

  const keepPaused = (threadId: string, run: AgUiRun) =>
    run.result.then(
      (result) => {
        if (result.status !== 'interrupted' || !result.state) return;
        paused.set(threadId, result.state);
        if (paused.size > maxRuns) paused.delete(paused.keys().next().value!);
      },
      () => undefined,
    );

  const start = (input: AgUiRunInput): Response => {
    const tools = frontendTools(input.tools);
    const agent = typeof options.agent === 'function' ? options.agent({ input, tools }) : options.agent;
    const session = options.sessions?.session(input.threadId);
    const convert: AgUiConvertOptions = {
      threadId: input.threadId,
      runId: input.runId,
      frontendTools: new Set(tools.map((t) => t.name)),
    };
    const { input: text, history, toolResults } = fromAgUiMessages(input.messages);
    const waiting = paused.get(input.threadId);
    let run: AgUiRun;
    if (text !== undefined) {
      // A new user message starts a new turn: a run still waiting for answers is abandoned.
      paused.delete(input.threadId);
      run = agent.run(text, session ? { session } : { history: nameToolResults(history) });
    } else if (waiting) {
      convert.answeredCalls = answerPaused(waiting, { resume: input.resume ?? [], toolResults });
      paused.delete(input.threadId);
      convert.clientResults = new Set(toolResults.keys());
      run = agent.resume(waiting, session ? { session } : {});
    } else {
      throw new AgUiError('nothing_to_resume', `Thread ${input.threadId} has no paused run to answer`);
    }
    void keepPaused(input.threadId, run);
    streams.track(run, { key: input.runId, convert });
    return streams.response(input.runId, { after: 0 });
  };

  return {
    async handle(request) {
      try {
        if (request.method === 'GET') {
          const runId = new URL(request.url).searchParams.get('runId') ?? '';
          return streams.response(runId, { lastEventId: request.headers.get('last-event-id') });
        }
        if (request.method !== 'POST') return new Response('Method not allowed', { status: 405 });
        return start(readInput(await request.json().catch(() => undefined)));
      } catch (error) {
        if (!(error instanceof AgUiError)) throw error;
        const status = error.kind === 'nothing_to_resume' ? 409 : 400;
        return new Response(JSON.stringify({ error: error.kind, message: error.message }), {
          status,
          headers: JSON_HEADERS,
        });
      }
    },
    isActive: (runId) => streams.isActive(runId),
  };
}

/** Checks the fields tandem reads of a `RunAgentInput`. @throws AgUiError `invalid_request` */
function readInput(body: unknown): AgUiRunInput {
  const input = body as Partial<AgUiRunInput> | undefined;
  if (
    typeof input !== 'object' ||
    input === null ||
    typeof input.threadId !== 'string' ||
    typeof input.runId !== 'string' ||
    !Array.isArray(input.messages)
  ) {
    throw new AgUiError('invalid_request', 'Expected an AG-UI RunAgentInput: threadId, runId and messages');
  }
  return input as AgUiRunInput;
}
