/**
 * The span tree of one run, built event by event: a root span, a span per
 * stage, plan-step attempt and tool call, span events for the rest, and
 * token usage on the span that spent it.
 * @module
 */
import {
  type Attributes,
  type Context,
  context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { TandemEvent } from '../core/events.js';
import { addUsage, emptyUsage, type Usage } from '../core/usage.js';
import { endRoot, rootAttributes } from './root-span.js';
import { type SpanEventType, spanEventAttributes } from './span-events.js';
import { type ContentPolicy, content, jsonContent, put, setUsageAttributes, toHrTime } from './values.js';

/** What a {@link RunTrace} takes from `instrument`'s options. */
export interface TraceSettings {
  tracer: Tracer;
  /** Context the root span is a child of. Default: the context active when the run's first event is recorded. */
  parent: Context | undefined;
  rootName: string;
  /** `gen_ai.agent.name` of the root when its first event names no agent. */
  agentName: string;
  rootAttributes: Attributes | undefined;
  content: ContentPolicy;
}

/** An open span and the usage recorded on it so far. */
interface Node {
  span: Span;
  usage: Usage | undefined;
}

/** An open stage: matched to its closing event by name and tags. */
interface StageNode extends Node {
  name: string;
  agent: string | undefined;
  stepId: string | undefined;
  parentId: string | undefined;
  /** The tool, step or root span the stage belongs to. */
  container: Node;
}

/** Status message of spans still open when the run ended. */
export const NOT_CLOSED = 'not closed';

/**
 * Spans of one run. Events may arrive out of order, unmatched or after a
 * late attach: every handler tolerates that (an unmatched close is a no-op).
 */
export class RunTrace {
  private root: Node | undefined;
  private readonly stages: StageNode[] = [];
  private readonly steps = new Map<string, Node>();
  private readonly tools = new Map<string, Node>();
  private readonly interrupts = new Map<string, Node>();
  private lastAt = 0;
  private base: Context = ROOT_CONTEXT;

  constructor(private readonly settings: TraceSettings) {}

  /** Records one event (never a token or reasoning delta); returns true when it ended the run. */
  record(event: TandemEvent): boolean {
    this.lastAt = event.at;
    const root = this.root ?? this.startRoot(event);
    switch (event.type) {
      case 'stage':
        if (event.status === 'running') this.openStage(event);
        else this.closeStage(event);
        return false;
      case 'plan_step_started':
        this.openStep(event);
        return false;
      case 'plan_step_completed':
      case 'plan_step_failed':
        this.closeStep(event);
        return false;
      case 'tool_call':
        this.openTool(event);
        return false;
      case 'tool_result':
        this.closeTool(event);
        return false;
      case 'usage': {
        const target = this.innermost(event.parentId, event.stepId);
        this.addUsageTo(target, event.usage);
        if (target !== root) this.addUsageTo(root, event.usage);
        return false;
      }
      case 'retry':
      case 'fallback':
      case 'guardrail':
      case 'compression':
      case 'interrupt':
      case 'interrupt_response':
      case 'routing':
      case 'plan_overview':
      case 'plan_revised':
      case 'handoff':
      case 'unpriced_models':
        this.addSpanEvent(event);
        return false;
      case 'complete':
      case 'error':
        this.finish(event, root);
        return true;
      default:
        return false;
    }
  }

  /** Ends every open span where the run was last seen, marked `tandem.incomplete` (the caller detached). */
  abandon(): void {
    const end = toHrTime(this.lastAt);
    for (const node of this.openChildren()) {
      node.span.setAttribute('tandem.incomplete', true);
      node.span.end(end);
    }
    this.clear();
    if (this.root) {
      this.root.span.setAttribute('tandem.incomplete', true);
      this.root.span.end(end);
    }
  }

  private startRoot(event: TandemEvent): Node {
    this.base = this.settings.parent ?? context.active();
    const span = this.settings.tracer.startSpan(
      this.settings.rootName,
      {
        kind: SpanKind.INTERNAL,
        startTime: toHrTime(event.at),
        attributes: rootAttributes(event, this.settings),
      },
      this.base,
    );
    this.root = { span, usage: undefined };
    return this.root;
  }

  /** The context a call tagged with these ids runs under: the innermost open span that holds it. */
  contextFor(parentId: string | undefined, stepId: string | undefined): Context {
    const node = this.root ? this.innermost(parentId, stepId) : undefined;
    return node ? trace.setSpan(this.base, node.span) : this.base;
  }

  /** The context of the open span of tool call `callId`, if there is one. */
  toolContext(callId: string): Context | undefined {
    const node = this.tools.get(callId);
    return node && trace.setSpan(this.base, node.span);
  }

  /** A span under `parent`, starting when the event being recorded happened. */
  private start(name: string, parent: Node, attributes: Attributes): Node {
    const span = this.settings.tracer.startSpan(
      name,
      { kind: SpanKind.INTERNAL, startTime: toHrTime(this.lastAt), attributes },
      trace.setSpan(this.base, parent.span),
    );
    return { span, usage: undefined };
  }

  /** The span an event belongs to: its enclosing tool call, else its plan step, else the root. */
  private container(parentId: string | undefined, stepId: string | undefined): Node {
    if (parentId !== undefined) {
      const tool = this.tools.get(parentId);
      if (tool) return tool;
    }
    if (stepId !== undefined) {
      const step = this.steps.get(stepId);
      if (step) return step;
    }
    return this.root!;
  }

  /** The innermost open stage of the event's container, or the container itself. */
  private innermost(parentId: string | undefined, stepId: string | undefined): Node {
    return this.innermostIn(this.container(parentId, stepId));
  }

  private innermostIn(container: Node): Node {
    for (let i = this.stages.length - 1; i >= 0; i--) {
      if (this.stages[i]!.container === container) return this.stages[i]!;
    }
    return container;
  }

  private openStage(e: TandemEvent<'stage'>): void {
    const container = this.container(e.parentId, e.stepId);
    const a: Attributes = { 'tandem.stage.name': e.name };
    put(a, 'tandem.stage.detail', e.detail);
    put(a, 'gen_ai.agent.name', e.agent);
    put(a, 'tandem.step.id', e.stepId);
    const node = this.start(`tandem.stage ${e.name}`, this.innermostIn(container), a);
    this.stages.push({
      ...node,
      name: e.name,
      agent: e.agent,
      stepId: e.stepId,
      parentId: e.parentId,
      container,
    });
  }

  private closeStage(e: TandemEvent<'stage'>): void {
    let index = -1;
    for (let i = this.stages.length - 1; i >= 0 && index < 0; i--) {
      const s = this.stages[i]!;
      if (s.name === e.name && s.agent === e.agent && s.stepId === e.stepId && s.parentId === e.parentId)
        index = i;
    }
    // Tags may differ between open and close when producers scope differently; the name still matches.
    for (let i = this.stages.length - 1; i >= 0 && index < 0; i--) {
      if (this.stages[i]!.name === e.name) index = i;
    }
    if (index < 0) return;
    const [stage] = this.stages.splice(index, 1);
    if (e.status === 'failed') {
      stage!.span.setStatus({ code: SpanStatusCode.ERROR, message: e.detail ?? 'stage failed' });
    } else {
      stage!.span.setStatus({ code: SpanStatusCode.OK });
    }
    stage!.span.end(toHrTime(e.at));
  }

  private openStep(e: TandemEvent<'plan_step_started'>): void {
    const id = e.stepId ?? e.step.id;
    const previous = this.steps.get(id);
    if (previous) endDangling(previous, e.at);
    const a: Attributes = {
      'tandem.step.id': id,
      'tandem.step.attempt': e.attempt,
      'tandem.step.mode': e.mode,
    };
    put(a, 'gen_ai.agent.name', e.agent);
    put(a, 'tandem.step.description', content(this.settings.content, e.step.description));
    this.steps.set(id, this.start(`tandem.plan_step ${id}`, this.innermost(e.parentId, undefined), a));
  }

  private closeStep(e: TandemEvent<'plan_step_completed' | 'plan_step_failed'>): void {
    const node = e.stepId === undefined ? undefined : this.steps.get(e.stepId);
    if (!node) {
      if (e.type === 'plan_step_failed' && e.skipped) {
        const a: Attributes = { 'tandem.step.id': e.stepId ?? '', 'tandem.error.message': e.error.message };
        this.innermost(e.parentId, undefined).span.addEvent('plan_step_skipped', a, toHrTime(e.at));
      }
      return;
    }
    this.steps.delete(e.stepId!);
    if (e.type === 'plan_step_completed') {
      node.span.setAttribute('tandem.plan.completed', e.completed);
      node.span.setAttribute('tandem.plan.total', e.total);
      const output = content(this.settings.content, e.output);
      if (output !== undefined) node.span.setAttribute('tandem.output', output);
      node.span.setStatus({ code: SpanStatusCode.OK });
    } else {
      node.span.setAttribute('error.type', e.error.kind);
      node.span.setAttribute('tandem.step.will_retry', e.willRetry);
      node.span.setStatus({ code: SpanStatusCode.ERROR, message: e.error.message });
    }
    node.span.end(toHrTime(e.at));
  }

  private openTool(e: TandemEvent<'tool_call'>): void {
    const previous = this.tools.get(e.id);
    if (previous) endDangling(previous, e.at);
    const a: Attributes = {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': e.name,
      'gen_ai.tool.call.id': e.id,
    };
    put(a, 'tandem.tool.requested_name', e.requestedName);
    put(a, 'gen_ai.agent.name', e.agent);
    put(a, 'tandem.step.id', e.stepId);
    put(a, 'gen_ai.tool.call.arguments', jsonContent(this.settings.content, e.args));
    this.tools.set(e.id, this.start(`execute_tool ${e.name}`, this.innermost(e.parentId, e.stepId), a));
  }

  private closeTool(e: TandemEvent<'tool_result'>): void {
    const node = this.tools.get(e.id);
    if (!node) return;
    this.tools.delete(e.id);
    const span = node.span;
    span.setAttribute('tandem.tool.duration_ms', e.durationMs);
    if (e.truncated) span.setAttribute('tandem.tool.truncated', true);
    const output = content(this.settings.content, e.output);
    if (output !== undefined) span.setAttribute('gen_ai.tool.call.result', output);
    if (e.isError) {
      span.setAttribute('error.type', 'tool_error');
      span.setStatus({ code: SpanStatusCode.ERROR, message: output ?? 'tool returned an error' });
    } else {
      span.setStatus({ code: SpanStatusCode.OK });
    }
    span.end(toHrTime(e.at));
  }

  private addUsageTo(node: Node, usage: Usage): void {
    node.usage ??= emptyUsage();
    addUsage(node.usage, usage);
    setUsageAttributes(node.span, node.usage);
  }

  private addSpanEvent(e: TandemEvent<SpanEventType>): void {
    let target: Node | undefined;
    if (e.type === 'interrupt' && e.interrupt.toolCallId !== undefined) {
      target = this.tools.get(e.interrupt.toolCallId);
    } else if (e.type === 'interrupt_response') {
      target = this.interrupts.get(e.interruptId);
      this.interrupts.delete(e.interruptId);
      if (target && !target.span.isRecording()) target = undefined;
    }
    target ??= this.innermost(e.parentId, e.stepId);
    if (e.type === 'interrupt') this.interrupts.set(e.interrupt.id, target);
    target.span.addEvent(e.type, spanEventAttributes(e, this.settings.content), toHrTime(e.at));
  }

  private finish(e: TandemEvent<'complete' | 'error'>, root: Node): void {
    for (const node of this.openChildren()) endDangling(node, e.at);
    this.clear();
    endRoot(root.span, e, this.settings.content);
  }

  /** Open spans below the root, innermost kinds first. */
  private openChildren(): Node[] {
    return [...this.tools.values(), ...this.stages.slice().reverse(), ...this.steps.values()];
  }

  private clear(): void {
    this.tools.clear();
    this.stages.length = 0;
    this.steps.clear();
    this.interrupts.clear();
  }
}

function endDangling(node: Node, at: number): void {
  node.span.setStatus({ code: SpanStatusCode.ERROR, message: NOT_CLOSED });
  node.span.end(toHrTime(at));
}
