/**
 * `tandem-agents/ai-sdk-ui`: tandem runs in the AI SDK's UI message stream
 * protocol, so `useChat` (React, Vue, Svelte) talks to a tandem agent:
 * text, reasoning, tool parts, step boundaries, `data-*` parts for the plan,
 * steps, checklist and usage, tool approvals answered from the UI, and
 * streams a reconnecting client resumes. No dependency: the chunk types are
 * declared here and match `ai`'s.
 * @packageDocumentation
 */
export {
  type TandemDataChunk,
  type TandemUIDataTypes,
  UI_MESSAGE_STREAM_HEADERS,
  type UIChunk,
  type UIFinishReason,
} from './chunks.js';
export { UIChunkConverter, type UIStreamOptions } from './convert.js';
export {
  answerApprovals,
  fromUIMessages,
  type UIApprovalAnswer,
  type UIMessageLike,
  type UIPartLike,
  type UIRequestInput,
} from './input.js';
export {
  createUIStreamRegistry,
  type UIResumeOptions,
  type UIStreamRegistry,
  type UIStreamRegistryOptions,
  type UITrackableRun,
  type UITrackOptions,
} from './registry.js';
export {
  type IndexedChunk,
  toUIMessageStream,
  toUIMessageStreamResponse,
  type UIStreamResponseInit,
} from './stream.js';
