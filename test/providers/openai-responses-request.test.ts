import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/core/messages.js';
import type { ModelRequest } from '../../src/model/types.js';
import { buildResponsesBody, isReasoningModel } from '../../src/providers/openai/responses-request.js';

const user: Message = { role: 'user', content: 'Weather in Rome?' };

describe('OpenAI Responses request body', () => {
  it('puts a multi-part system prompt into instructions and never into the input', () => {
    const body = buildResponsesBody(
      { system: [{ text: 'You are terse.', cache: true }, { text: 'Answer in English.' }], messages: [user] },
      { modelId: 'gpt-4o', settings: {} },
      false,
    );
    expect(body.instructions).toBe('You are terse.\n\nAnswer in English.');
    expect(body.input).toEqual([
      { role: 'user', content: [{ type: 'input_text', text: 'Weather in Rome?' }] },
    ]);
    expect(JSON.stringify(body.input)).not.toContain('You are terse.');
  });

  it('omits instructions when there is no system prompt', () => {
    expect(
      buildResponsesBody({ messages: [user] }, { modelId: 'gpt-4o', settings: {} }, false),
    ).not.toHaveProperty('instructions');
  });

  it('sends tools as non-strict function tools and a named tool choice as a function choice', () => {
    const body = buildResponsesBody(
      {
        messages: [user],
        tools: [
          { name: 'weather', description: 'Get weather', parameters: { type: 'object', properties: {} } },
        ],
        toolChoice: { name: 'weather' },
      },
      { modelId: 'gpt-4o', settings: {} },
      true,
    );
    expect(body.tools).toEqual([
      {
        type: 'function',
        name: 'weather',
        description: 'Get weather',
        parameters: { type: 'object', properties: {} },
        strict: false,
      },
    ]);
    expect(body.tool_choice).toEqual({ type: 'function', name: 'weather' });
    expect(body.stream).toBe(true);
  });

  it('turns tool calls and results into function_call and function_call_output items', () => {
    const messages: Message[] = [
      user,
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_call', id: 'call_1', name: 'weather', arguments: '{"city":"Rome"}' },
          { type: 'tool_call', id: 'call_2', name: 'weather', arguments: '{"city":"Oslo"}' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool_result', toolCallId: 'call_1', toolName: 'weather', content: 'sunny' },
          { type: 'tool_result', toolCallId: 'call_2', toolName: 'weather', content: 'boom', isError: true },
        ],
      },
    ];
    expect(buildResponsesBody({ messages }, { modelId: 'gpt-4o', settings: {} }, false).input).toEqual([
      { role: 'user', content: [{ type: 'input_text', text: 'Weather in Rome?' }] },
      { role: 'assistant', content: [{ type: 'output_text', text: 'Checking.' }] },
      { type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{"city":"Rome"}' },
      { type: 'function_call', call_id: 'call_2', name: 'weather', arguments: '{"city":"Oslo"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
      { type: 'function_call_output', call_id: 'call_2', output: 'boom' },
    ]);
  });

  it('maps a JSON response format to text.format json_schema, or json_object without a schema', () => {
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } } };
    const withSchema = buildResponsesBody(
      { messages: [user], responseFormat: { type: 'json', schema, name: 'verdict' } },
      { modelId: 'gpt-4o', settings: {} },
      false,
    );
    expect(withSchema.text).toEqual({
      format: { type: 'json_schema', name: 'verdict', schema, strict: false },
    });
    const bare = buildResponsesBody(
      { messages: [user], responseFormat: { type: 'json' } },
      { modelId: 'gpt-4o', settings: {} },
      false,
    );
    expect(bare.text).toEqual({ format: { type: 'json_object' } });
  });

  it('sends temperature and max_output_tokens to a chat model, without encrypted reasoning or stop', () => {
    const request: ModelRequest = { messages: [user], temperature: 0.2, maxOutputTokens: 300, stop: ['END'] };
    const body = buildResponsesBody(request, { modelId: 'gpt-4o', settings: {} }, false);
    expect(body.temperature).toBe(0.2);
    expect(body.max_output_tokens).toBe(300);
    expect(body.store).toBe(false);
    expect(body).not.toHaveProperty('include');
    expect(body).not.toHaveProperty('reasoning');
    expect(body).not.toHaveProperty('stop');
  });

  it('drops temperature for reasoning models and asks them for encrypted reasoning and the configured effort', () => {
    const body = buildResponsesBody(
      { messages: [user], temperature: 0.2 },
      { modelId: 'gpt-5-mini', settings: { reasoningEffort: 'low', reasoningSummary: 'auto' } },
      false,
    );
    expect(body).not.toHaveProperty('temperature');
    expect(body.include).toEqual(['reasoning.encrypted_content']);
    expect(body.reasoning).toEqual({ effort: 'low', summary: 'auto' });
  });

  it('guesses reasoning models from the id and lets settings override the guess', () => {
    expect(
      ['o3-mini', 'o4-mini', 'gpt-5', 'gpt-5.1-codex', 'codex-mini-latest'].map((id) => isReasoningModel(id)),
    ).toEqual([true, true, true, true, true]);
    expect(['gpt-4o', 'gpt-4.1-nano', 'gpt-5-chat-latest'].map((id) => isReasoningModel(id))).toEqual([
      false,
      false,
      false,
    ]);
    expect(isReasoningModel('my-azure-deployment', { reasoningModel: true })).toBe(true);
  });

  it('with store: true, replays reasoning without encrypted content by item id and does not ask for it', () => {
    const messages: Message[] = [
      user,
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: '', providerMetadata: { openai: { itemId: 'rs_1' } } },
          { type: 'tool_call', id: 'call_1', name: 'weather', arguments: '{}' },
        ],
      },
    ];
    const stored = buildResponsesBody({ messages }, { modelId: 'o3', settings: { store: true } }, false);
    expect(stored.store).toBe(true);
    expect(stored).not.toHaveProperty('include');
    expect((stored.input as unknown[])[1]).toEqual({ type: 'reasoning', id: 'rs_1', summary: [] });
    const stateless = buildResponsesBody({ messages }, { modelId: 'o3', settings: {} }, false);
    expect(stateless.input).toEqual([
      { role: 'user', content: [{ type: 'input_text', text: 'Weather in Rome?' }] },
      { type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{}' },
    ]);
  });

  it('folds the summary parts of one reasoning item back together and drops reasoning of other providers', () => {
    const meta = { openai: { itemId: 'rs_9' } };
    const messages: Message[] = [
      user,
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'thought from another provider', signature: 'sig' },
          { type: 'reasoning', text: 'first', providerMetadata: meta },
          { type: 'reasoning', text: 'second', providerMetadata: meta, redacted: 'enc' },
          { type: 'text', text: 'Sunny.' },
        ],
      },
    ];
    expect(
      (buildResponsesBody({ messages }, { modelId: 'o3', settings: {} }, false).input as unknown[]).slice(1),
    ).toEqual([
      {
        type: 'reasoning',
        id: 'rs_9',
        summary: [
          { type: 'summary_text', text: 'first' },
          { type: 'summary_text', text: 'second' },
        ],
        encrypted_content: 'enc',
      },
      { role: 'assistant', content: [{ type: 'output_text', text: 'Sunny.' }] },
    ]);
  });

  it('merges providerOptions.openai last so it can set any field', () => {
    const body = buildResponsesBody(
      {
        messages: [user],
        providerOptions: { openai: { service_tier: 'flex', store: true }, anthropic: { x: 1 } },
      },
      { modelId: 'gpt-4o', settings: {} },
      false,
    );
    expect(body.service_tier).toBe('flex');
    expect(body.store).toBe(true);
    expect(body).not.toHaveProperty('x');
  });
});
