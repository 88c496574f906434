/**
 * An orchestration on a session: the thread's recent messages become the
 * run's history (saved with its state, so a resume sees the same), and the
 * request with its answer is appended as one batch when the run ends with
 * an answer (docs/sessions.md).
 * @module
 */
import type { Emitter } from '../../core/events.js';
import type { Message } from '../../core/messages.js';
import type { Clock } from '../../core/seams.js';
import type { Session } from '../../state/session.js';
import { DEFAULT_SESSION_HISTORY, loadSessionHistory, SessionWriter } from '../../state/session-run.js';
import type { OrchestratorResult } from './options.js';
import type { RunRecorder } from './run-recorder.js';
import { requestOf } from './run-request.js';

/** How a run uses its session: `resumed` runs keep the history saved in their state. */
export interface SessionUse {
  session: Session;
  historyLimit?: number;
  resumed: boolean;
}

/** The session of one orchestration. */
export class OrchestrationSession {
  private constructor(
    private readonly writer: SessionWriter,
    /** False for a resume of a run that had completed: its answer is in the thread already. */
    private readonly appends: boolean,
  ) {}

  /**
   * Opens the session of the run `recorder` records: a new run's history is
   * loaded into its state.
   * @throws SessionError when the session cannot be loaded.
   */
  static async open(
    use: SessionUse,
    recorder: RunRecorder,
    run: { clock: Clock; emit: Emitter },
  ): Promise<OrchestrationSession> {
    const { session } = use;
    const state = recorder.state;
    if (!use.resumed) {
      const loaded = await loadSessionHistory(session, use.historyLimit ?? DEFAULT_SESSION_HISTORY);
      if (loaded.messages.length) state.history = loaded.messages;
    }
    const writer = new SessionWriter({ session, from: 0, runId: state.runId, ...run });
    return new OrchestrationSession(writer, !(use.resumed && state.status === 'completed'));
  }

  /**
   * Appends the run's request and answer (one batch) when the run ended with
   * an answer, and reports on `result.session`; a failed append is reported
   * there and by a `session` stage event, the result is returned still.
   */
  async settle(result: OrchestratorResult, recorder: RunRecorder): Promise<void> {
    const answered = (result.status === 'success' || result.status === 'partial') && result.output !== '';
    if (answered && this.appends) {
      const turn: Message[] = [
        { role: 'user', content: requestOf(recorder.state).content },
        { role: 'assistant', content: [{ type: 'text', text: result.output }] },
      ];
      await this.writer.write(turn);
    }
    result.session = await this.writer.report();
  }
}
