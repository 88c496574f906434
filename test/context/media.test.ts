import { describe, expect, it } from 'vitest';
import { ContextCompressor } from '../../src/context/compressor.js';
import { ConversationHistory } from '../../src/context/conversation-history.js';
import { estimateMediaTokens, imageSize, mediaTokenRule } from '../../src/context/media-tokens.js';
import { placeBetween } from '../../src/context/summary-placement.js';
import { TokenCounter } from '../../src/context/token-counter.js';
import { PRUNED_TOOL_OUTPUT, pruneToolOutputs } from '../../src/context/tool-output-pruning.js';
import { toBase64 } from '../../src/core/media.js';
import type { ImagePart, Message, ToolMessage } from '../../src/core/messages.js';
import { assistant, call, fakeSummarizer, pairingProblems, result, toolConversation } from './helpers.js';

// A PNG header (signature and IHDR) of a 1024×768 image: all the counter reads.
function pngHeader(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  return bytes;
}

// A JPEG with an APP0 segment before its start-of-frame.
function jpegHeader(width: number, height: number): Uint8Array {
  const app0 = [0xff, 0xe0, 0, 16, ...new Array(14).fill(0)];
  const sof = [0xff, 0xc0, 0, 17, 8, height >> 8, height & 255, width >> 8, width & 255, 3];
  return Uint8Array.from([0xff, 0xd8, ...app0, ...sof, ...new Array(10).fill(0)]);
}

const photo: ImagePart = {
  type: 'image',
  mediaType: 'image/png',
  data: pngHeader(1024, 768),
  filename: 'chart.png',
};
const PAYLOAD = toBase64(new Uint8Array(3000).fill(65));
const pdf = (pages: number) =>
  toBase64(new TextEncoder().encode(`%PDF-1.4\n${'<</Type /Page>>\n'.repeat(pages)}<</Type /Pages>>`));

describe('token estimates of images and files', () => {
  it('reads image sizes from PNG, JPEG and GIF headers', () => {
    expect(imageSize(pngHeader(1024, 768))).toEqual({ width: 1024, height: 768 });
    expect(imageSize(jpegHeader(640, 480))).toEqual({ width: 640, height: 480 });
    expect(imageSize(Uint8Array.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 10, 0, 20, 0]))).toEqual({
      width: 10,
      height: 20,
    });
  });

  it('counts an image by each provider rule: OpenAI tiles, Anthropic pixels/750, Gemini 258 per tile', () => {
    expect(estimateMediaTokens(photo, 'openai')).toBe(85 + 170 * 4);
    expect(estimateMediaTokens(photo, 'anthropic')).toBe(Math.ceil((1024 * 768) / 750));
    expect(estimateMediaTokens(photo, 'gemini')).toBe(258 * 2);
    const small = { ...photo, data: pngHeader(300, 200) };
    expect(estimateMediaTokens(small, 'gemini')).toBe(258);
    // OpenAI fits 4000×3000 into 2048² (2048×1536), then the short side to 768 (1024×768): 4 tiles.
    expect(estimateMediaTokens({ ...photo, data: pngHeader(4000, 3000) }, 'openai')).toBe(765);
  });

  it('counts images by URL at each rule’s typical size, PDFs by page, text by bytes', () => {
    const byUrl: ImagePart = { type: 'image', mediaType: 'image/jpeg', url: 'https://example.com/a.jpg' };
    expect([estimateMediaTokens(byUrl, 'openai'), estimateMediaTokens(byUrl, 'anthropic')]).toEqual([
      765, 1600,
    ]);
    const doc = { type: 'file' as const, mediaType: 'application/pdf', data: pdf(3) };
    expect(estimateMediaTokens(doc, 'gemini')).toBe(3 * 258);
    expect(estimateMediaTokens(doc, 'anthropic')).toBe(3 * 2250);
    const text = { type: 'file' as const, mediaType: 'text/plain', data: toBase64(new Uint8Array(400)) };
    expect(estimateMediaTokens(text, 'openai')).toBe(100);
  });

  it('picks the rule from the model id, and counts user images and tool attachments in messages', () => {
    expect(mediaTokenRule('anthropic:claude-sonnet-4-5')).toBe('anthropic');
    expect(mediaTokenRule('gemini-2.5-pro')).toBe('gemini');
    expect(mediaTokenRule('openai:gpt-4o')).toBe('openai');
    const counter = new TokenCounter({ model: 'claude-sonnet-4-5', encoding: 'estimate' });
    const withImage: Message = { role: 'user', content: [{ type: 'text', text: 'abcd' }, photo] };
    expect(counter.countMessage(withImage)).toBe(4 + 1 + Math.ceil((1024 * 768) / 750));
    const tool: Message = {
      ...result('c1', 'abcd'),
      content: [{ ...result('c1', 'abcd').content[0]!, attachments: [photo] }],
    };
    expect(counter.countMessage(tool)).toBe(4 + 3 + 1 + Math.ceil((1024 * 768) / 750));
    const custom = new TokenCounter({ encoding: 'estimate', mediaTokens: () => 7 });
    expect(custom.countMessage(withImage)).toBe(4 + 1 + 7);
  });
});

function withAttachments(message: Message, attachments: ImagePart[]): ToolMessage {
  if (message.role !== 'tool') throw new Error('not a tool message');
  return { role: 'tool', content: [{ ...message.content[0]!, attachments }] };
}

describe('compression of images and files', () => {
  it('shows the summariser placeholders naming each image and file, never their bytes', async () => {
    const summarizer = fakeSummarizer(() => '## Active Task\nread the chart');
    const messages = toolConversation(30, 100);
    const big = { ...photo, data: PAYLOAD };
    messages[8] = { role: 'user', content: [{ type: 'text', text: 'see this' }, big] };
    messages[10] = withAttachments(messages[10]!, [big]);
    const c = new ContextCompressor({ counter: new TokenCounter(), summarizer, contextWindow: 4000 });
    const out = await c.compress({ messages });
    expect(out.method).toBe('summary');
    const prompt = summarizer.requests[0]!.messages[0]!.content as string;
    expect(prompt).toContain('[USER]: see this\n[image: image/png, chart.png, 3000 bytes]');
    expect(prompt).toContain('[TOOL RESULT read c2]: output 2');
    expect(prompt.match(/\[image: image\/png, chart\.png, 3000 bytes\]/g)).toHaveLength(2);
    expect(prompt).not.toContain(PAYLOAD.slice(0, 40));
  });

  it('prunes old attachments to placeholders in their own result, keeping calls and results paired', () => {
    const messages = toolConversation(6, 50);
    messages[2] = withAttachments(messages[2]!, [photo]);
    const { messages: out, pruned } = pruneToolOutputs(messages, { from: 0, to: 8 }, 200);
    expect(pruned).toBe(1);
    const part = (out[2] as ToolMessage).content[0]!;
    expect(part.attachments).toBeUndefined();
    expect(part.content).toBe(`output 0 ${'x'.repeat(50)}\n[image: image/png, chart.png, 33 bytes]`);
    expect(pairingProblems(out)).toEqual([]);
    const long = withAttachments(result('c9', 'y'.repeat(300)), [photo]);
    const prunedLong = pruneToolOutputs([call('c9'), long], { from: 0, to: 2 }, 200)
      .messages[1] as ToolMessage;
    expect(prunedLong.content).toEqual([
      {
        type: 'tool_result',
        toolCallId: 'c9',
        toolName: 'read',
        content: `${PRUNED_TOOL_OUTPUT}\n[image: image/png, chart.png, 33 bytes]`,
      },
    ]);
  });

  it('never separates an image from its message: a kept message keeps its parts, a merged summary goes before them', async () => {
    const summarizer = fakeSummarizer(() => 'SUMMARY');
    const messages = toolConversation(30, 100);
    const last: Message = { role: 'user', content: [{ type: 'text', text: 'and this?' }, photo] };
    messages.splice(messages.length - 4, 1, last);
    const counter = new TokenCounter({ mediaTokens: () => 10 });
    const out = await new ContextCompressor({ counter, summarizer, contextWindow: 4000 }).compress({
      messages,
    });
    expect(out.method).toBe('summary');
    expect(out.messages.filter((m) => JSON.stringify(m).includes('chart.png'))).toEqual([last]);

    const merged = placeBetween({ head: [assistant('done')], tail: [last] }, 'SUMMARY', true);
    expect(merged[1]!.content).toEqual([
      { type: 'text', text: 'SUMMARY\n\n' },
      ...(last.content as unknown[]),
    ]);
  });

  it('renders images and files of the recent conversation as placeholders', () => {
    const history = new ConversationHistory();
    history.add({ role: 'user', content: [{ type: 'text', text: 'Look: ' }, photo] });
    history.add(call('c1'));
    history.add(withAttachments(result('c1', 'zoomed'), [photo]));
    expect(history.buildContext()).toBe(
      '**Recent Conversation:**\nUSER: Look: [image: image/png, chart.png, 33 bytes]\n\nASSISTANT: [called read({})]\n\nTOOL: [read result] zoomed [image: image/png, chart.png, 33 bytes]',
    );
  });
});
