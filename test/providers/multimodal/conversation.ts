/**
 * The conversation every adapter's multimodal request test sends: a user
 * message with text, an image as bytes, an image by URL and a PDF as base64;
 * a tool call; and its result with an image and a PDF attached. Each
 * adapter's expected wire body is a fixture in `fixtures/`, written from the
 * provider's documented request format.
 */
import { readFileSync } from 'node:fs';
import type { FilePart, ImagePart, Message } from '../../../src/core/messages.js';

/** A 1×1 PNG. */
export const PNG_BYTES = Uint8Array.from([
  137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 31, 21,
  196, 137, 0, 0, 0, 13, 73, 68, 65, 84, 120, 156, 99, 248, 207, 192, 240, 31, 0, 5, 0, 1, 255, 137, 153, 61,
  29, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
]);

/** {@link PNG_BYTES} as base64, as the fixtures hold it. */
export const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';

/** A one-page PDF, base64. */
export const PDF_BASE64 = 'JVBERi0xLjQKMSAwIG9iaiA8PC9UeXBlIC9QYWdlPj4gZW5kb2JqCiUlRU9GCg==';

/** The head of a WAV file, base64. */
export const WAV_BASE64 = 'UklGRiQAAABXQVZFZm10IA==';

/** The screenshot a tool returns. */
export const SCREENSHOT: ImagePart = { type: 'image', mediaType: 'image/png', data: PNG_BYTES };

/** The page a tool returns. */
export const PAGE: FilePart = {
  type: 'file',
  mediaType: 'application/pdf',
  data: PDF_BASE64,
  filename: 'page.pdf',
};

/** The user message: text, image bytes, image URL, PDF. */
export function userTurn(): Message {
  return {
    role: 'user',
    content: [
      { type: 'text', text: 'What do these show?' },
      { type: 'image', mediaType: 'image/png', data: PNG_BYTES },
      { type: 'image', mediaType: 'image/jpeg', url: 'https://example.com/cat.jpg' },
      { type: 'file', mediaType: 'application/pdf', data: PDF_BASE64, filename: 'report.pdf' },
    ],
  };
}

/** The whole conversation: the user message, a `screenshot` call, its result with attachments. */
export function conversation(): Message[] {
  return [
    userTurn(),
    {
      role: 'assistant',
      content: [{ type: 'tool_call', id: 'call_1', name: 'screenshot', arguments: '{}' }],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool_result',
          toolCallId: 'call_1',
          toolName: 'screenshot',
          content: 'Captured.',
          attachments: [SCREENSHOT, PAGE],
        },
      ],
    },
  ];
}

/** A user message holding only `part`, for the tests of what an adapter refuses. */
export function only(part: ImagePart | FilePart): Message[] {
  return [{ role: 'user', content: [{ type: 'text', text: 'Look.' }, part] }];
}

/** The expected wire body of `name` (`fixtures/<name>.json`). */
export function fixture(name: string): any {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8'));
}
