/**
 * `tandem-agents/ag-ui`: a tandem agent behind an AG-UI endpoint, so
 * CopilotKit and any `@ag-ui/client` frontend talk to it: text, reasoning,
 * tool calls and results, plan steps, the plan and checklist as shared
 * state, approvals as AG-UI interrupts, frontend tools called through the
 * client, and streams a reconnecting client resumes. No dependency: the
 * events are declared here and match `@ag-ui/core`'s schemas.
 * @packageDocumentation
 */

export { toNodeListener } from '../viewer/server/node.js';
export { AgUiConverter, type AgUiConvertOptions } from './convert.js';
export type { AgUiEvent, AgUiInterrupt, AgUiOutcome, AgUiPatchOp, AgUiTandemState } from './events.js';
export {
  type AgUiAgent,
  type AgUiAgentRequest,
  type AgUiHandler,
  type AgUiHandlerOptions,
  type AgUiRun,
  createAgUiHandler,
} from './handler.js';
export {
  AgUiError,
  type AgUiMessageLike,
  type AgUiRequestInput,
  type AgUiResumeEntryLike,
  type AgUiRunInput,
  type AgUiToolLike,
  fromAgUiMessages,
  frontendTools,
} from './input.js';
export { type AgUiAnswers, answerPaused } from './resume.js';
export { AG_UI_HEADERS } from './streams.js';
