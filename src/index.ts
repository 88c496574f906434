// biome-ignore-all format: one name a line would make this list of ~450 names longer than a file may be
/**
 * tandem-agents: an embeddable SDK for LLM agents that plan and act.
 *
 * The root entry is the curated public surface: what the README and docs/
 * teach, each name listed here by hand. A name exported by a layer's
 * `index.ts` is not public until it is listed here (or in a subpath entry),
 * and api/*.api.md records every entry's surface: `npm run api` regenerates
 * it, and test/package/api-report.test.ts fails when the build differs.
 * @packageDocumentation
 */

// Agents: the executor (ReAct loop), the orchestrator, planning, routing and handoffs.
export type {
  AgentDescriptor, AgentProfile, AgentToolsRun, ArtifactTransfer, ArtifactTransferReport, CheckpointErrorPolicy,
  CheckpointOptions, CheckpointReport, Classification, ClassifierPatterns, ClassifyContext, ClassifyMode, ClassifyOptions,
  Complexity, ContextOptions, ConversationContext, DirectSkills, EnhancePromptInput, ExecuteOptions, ExecutionStatus,
  ExecutorOptions, ExecutorResult, ExecutorResultOf, ExecutorRunOptions, FinalizeInput,
  FinalizeReducer, HandoffManagerOptions, HandoffRecord, HandoffRunOptions, HandoffRunResult, HandoffTarget,
  HandoffVerdict, LimitOptions, ModelSettings, OrchestratorContextOptions, OrchestratorLimitOptions,
  OrchestratorModels, OrchestratorOptions, OrchestratorResult, OrchestratorResultOf, OrchestratorRun,
  OrchestratorRunOptions, OrchestratorSafetyOptions, Plan, PlanCallOptions, PlanErrorKind, PlannerCallOptions, PlannerOptions,
  PlannerPrompts, PlanningDecision, PlanningOptions, PlanPromptInput, PlanStep, PrepareRequestInfo, ReflectionOptions,
  ResumeOptions, RevisePromptInput, RevisionContext, RiskLevel, RouteOptions, RouteResult, RouterOptions, Run,
  RunInit, SafetyOptions, SessionRunOptions, SharedExecutorOptions, SkillMode, StepFinding, StepJob, StepJobContext, StepJobResult, StepOutcome,
  StepResult, StepRunner, StructuredOrchestratorResult, StructuredResult, SystemPromptSource,
  TakeoverPromptInput, TodoStore, ToolHint, Verdict, Verification,
} from './agents/index.js';
export {
  AgentRegistry, classifyQuery, DEFAULT_CLASSIFIER_PATTERNS, DEFAULT_SKILL_MODES, defaultPlannerPrompts,
  defaultRouterPrompt, Executor, FORMAT_ANSWER_PROMPT, HandoffError, HandoffManager, HandoffSession,
  handoffToolFamily, MemoryTodoStore, Orchestrator, PlanError, Planner, planSchema, REFLECTION_PROMPT, Router,
  SandboxTodoStore, SEED_HANDOFF_MATRIX, summarizeHandoffs, VERIFY_JSON_SYSTEM_PROMPT, VERIFY_SYSTEM_PROMPT,
} from './agents/index.js';

// Context: token counting, compression, system prompts and memory shared across steps.
export type {
  BuiltSystemPrompt, CompressionResult, CompressOptions, ContextCompressorOptions, ContextFactoryOptions,
  ContextManager, ContextManagerOptions, ContextWindowSource, ConversationHistoryOptions, EncodingName, InstructionSource, MediaTokenEstimate,
  MediaTokenRule, MemorySource, PrepareInfo, ProjectInstructionsOptions,PromptSections, SharedMemoryFields, SharedMemoryFieldValue,
  SharedMemoryOptions, SharedMemoryValue,
  SystemPromptBuilderOptions, SystemPromptInput, TokenCounterOptions, WorkspaceEntry, WorkspaceLister,
  WorkspaceTreeOptions, 
} from './context/index.js';
export {
  ContextCompressor, ConversationHistory, contextPerConversation, createContextManager, loadProjectInstructions,
  SharedMemory, SystemPromptBuilder, summaryBodyOf, TokenCounter, WorkspaceTree,
} from './context/index.js';

// Core: errors, the event bus, usage and prices, message and media helpers.
export type {
  AssistantMessage, BudgetCheck, CancelTimer, Clock, Emitter, ErrorClass, ErrorInfo, EventBase, EventBusOptions,
  EventListener, EventPayloads, EventTags, EventType, ExecOptions, ExecOutput, ExecResult, FileEntry, FilePart, GeneratedImage,
  HeldReasoning, HeldRelease,
  IdGenerator, ImageCallOptions, ImageModel, ImagePart, ImageRequest, ImageResponse, InterruptView, MediaData,
  MediaPart, MediaPartOptions, MediaSummary, Message, ModelErrorKind, ModelErrorOptions, ModelPrice,
  PlanStepView, PriceLookup, PriceTable, ProviderMetadata, QueuedEvents, Random, ReasoningPart,
  RunBudgetLimits, RunErrorKind, RunIds, RunInput, Runtime, Sandbox, SpanAttributes, SpanOrigin, SpanRequest,
  SpanValue, StageStatus, TandemEvent, TextPart, ToolCallPart, ToolMessage, ToolResultPart, TraceSpan,
  Tracing, Usage, UserContent, UserMessage,
} from './core/index.js';
export {
  AbortError, addUsage, ConfigError, costOf, DEFAULT_PRICES, describeMedia, EventBus, emptyUsage,
  estimateTokens, filePart, fromBase64, IMAGE_MODEL_SPEC_VERSION, imagePart, isAbortError, isErrorOf,
  isModelError, isTandemError, ModelError, mediaTypeFromName, priceLookup, RunError, sniffMediaType,
  systemClock, TandemError, textOf, toBase64, userMessage,
} from './core/index.js';
// Models: invokers with retries and fallbacks, model tiers, streams and structured output.
export type {
  CallOptions, ChatModel, CompressHook, ContextRecoveryOptions, EmbeddingModel, EmbeddingResult, ExtractOptions, FallbackOptions, FinishReason,
  GenerateObjectOptions, GenerateObjectResult, GenerateOptions, GenerateWithRetryOptions, InvokeOptions,
  JsonSchema, JsonShape, LargePromptTimeout, LazySchema, ModelInfo, ModelInvoker, ModelRequest, ModelResponse,
  ModelStreamPart, ModelTier, ModelTiers, ProviderConfig, ProviderFactory, ProviderFactoryOptions,
  ProviderTiersOptions, ResilienceOptions, ResilientInvokerOptions, ResponseFormat, RetryOptions, StreamOptions,
  StructuredOutputErrorKind, StructuredOutputMode, SystemPart, TierMap, ToolChoice, ToolSpec
} from './model/index.js';
export {
  collectStream, createModelTiers, createProviderTiers, createResilientInvoker, directInvoker, extractJSON,
  extractObject, generateObject, generateWithRetry, MODEL_SPEC_VERSION, parseJSONLoose, parsePartialJson,
  parseProvidersConfig, parseWithSchema, parseWithSchemaAsync, StreamInterruptedError, StructuredOutputError,
  watchPartialObject,
} from './model/index.js';
// Safety: guardrails, approvals and interrupts.
export type {
  ApprovalGateOptions, ApprovalThreshold, AskContext, AskResult, AskUserArgs, AskUserToolOptions,
  DetectorVerdict, Guardrail, GuardrailAction, GuardrailCheck, GuardrailCheckOptions, GuardrailFinding,
  GuardrailRunOptions, GuardrailRunResult, GuardrailScanContext, GuardrailStage, GuardrailsOptions,
  GuardrailVerdict, HarmfulContentOptions, InterruptBus, InterruptErrorKind, Interruption, InterruptionKind,
  InterruptKind, InterruptOutcome, InterruptRequest, InterruptResponse, InterruptSpec,
  JailbreakGuardrailOptions, ModelDetectorOptions, PiiGuardrailOptions, PiiKind, ReportedFinding,
  SanitizeUntrustedOptions, SanitizeUntrustedResult, ShellLimits, ShellVerdict, TextVerdict,
  ToolArgsGuardrailOptions, ToolOutputOptions, ToolOutputVerdict, ToolScanSubject,
  UntrustedContentGuardrailOptions, UntrustedFinding, UntrustedLevel, UntrustedRule, UrlPolicy,
  WaitForOptions,
} from './safety/index.js';
export {
  ApprovalGate, askHuman, askUserTool, checkShell, DEFAULT_UNTRUSTED_TOOL_PATTERN, defaultGuardrails,
  Guardrails, harmfulContentGuardrail, InterruptError, jailbreakGuardrail, MemoryInterruptBus,
  modelDetectorGuardrail, normalizeForMatching, piiGuardrail, runGuardrails, sanitizeUntrusted,
  toolArgsGuardrail, UNTRUSTED_CONTENT_INSTRUCTIONS, untrustedContentGuardrail, wrapUntrusted,
} from './safety/index.js';
// Skills: defining, registering and composing skills.
export type {
  CitedReport, DepthBudget, GenerateTextOptions, ResearchDepth, ResearchOutput, ResearchScenario,
  ResearchSearch, ResearchSkillsOptions, SearchFunction, SearchResult, Skill, SkillContext, SkillDefinition,
  SkillEnvironment, SkillErrorDetails, SkillErrorKind, SkillInvokeOptions, SkillRegistryOptions, SkillSummary,
  SkillsIndexOptions, SkillToolsOptions, Source, ToolSkillOptions,
} from './skills/index.js';
export {
  createSkillTools, defineSkill, RESEARCH_DEPTHS, rememberResearch, researchSkills, SkillError, SkillRegistry,
  skillsIndex, toolSkill,
} from './skills/index.js';
// State: checkpoints, saved run state, sessions (conversations that persist) and progress for UIs.
export type {
  ApproveOptions, CheckpointErrorKind, CheckpointStore, ConversationState, 
  DeleteResourceReport, EntryMeta, HandoffState, MemoryOptions, MemoryStores,
  PendingInterrupt, PlanProgress, ProgressEntry, ProgressLimits, ProgressListener, ProgressSource,
  ProgressStore, ProgressStoreOptions, RecallOptions, ResourceStore, RunPhase, RunProgress, RunState, RunStateErrorKind, RunStatus,
  SavedStep, Session, SessionAppendOptions, SessionErrorKind, SessionItem, SessionReport, SessionSnapshot,
  SessionStore, SessionSummary, SSEResponseInit, StageProgress, StepProgress, StepState, StepStatus, 
  TerminalView, TextStream,ToolActivity, ToSSEOptions, VectorMatch, VectorQuery, VectorRecord,
  VectorStore, WorkingMemoryOptions, WorkingMemoryRecord, WorkingMemoryStore,
} from './state/index.js';
export {
  CheckpointError, checkpointRevision, claimCheckpoint, createProgressStore, decodeCheckpoint, deleteResource, EVENT_TYPES,
  encodeCheckpoint, formatSSE, InMemoryMemoryStore, InMemorySessionStore, MemoryCheckpointStore, PausedState, parseRunState,
  RUN_STATE_VERSION, RunStateError, reduceProgress, SessionError, sseResponse, toSSE
} from './state/index.js';

// Tools: defining, registering and running tools.
export type {
  CallContext, FilteredOutput, GateDecision, JsonSchemaOptions, JsonSchemaParameters, NeedsApproval, NeedsApprovalContext,
  ParsedArguments, PreparedCall, PreparedCallStatus, PreparedTurn, ReadyToolCall, RunToolsContext, Schema,
  SchemaIssue, SchemaOutput, SchemaValidation, Tool, ToolContext, ToolDefinition, ToolErrorCategory, 
  ToolFamily, ToolGate, ToolLimiter, ToolOutcome, ToolOutputFilter, ToolProgress, ToolQuestion,ToolResolution, ToolRisk,
  ToolRunnerOptions, TrajectoryOptions, TrajectoryRecord,
} from './tools/index.js';
export {
  classifyToolError, defineTool, jsonSchema, parseArguments, prepareToolCalls, TOOL_RECOVERY_HINTS,
  ToolRegistry, ToolRunner, toolSpec, toTrajectory, toTrajectoryJSONL, validateSchema,
} from './tools/index.js';
