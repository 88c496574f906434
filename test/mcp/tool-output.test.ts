import { describe, expect, it } from 'vitest';
import { mcpToolOutput } from '../../src/mcp/tool-output.js';

describe('MCP tool results with images and audio', () => {
  it('attaches image and audio contents (audio as a file part) and keeps the rest as text', () => {
    const content = [
      { type: 'text', text: 'Recorded:' },
      { type: 'image', data: 'iVBORw0K', mimeType: 'image/png' },
      { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
      { type: 'resource_link', uri: 'file:///a.wav', name: 'a.wav' },
    ];
    expect(mcpToolOutput({ text: 'ignored', content })).toEqual({
      content: 'Recorded:\n[resource link: file:///a.wav (a.wav)]',
      attachments: [
        { type: 'image', mediaType: 'image/png', data: 'iVBORw0K' },
        { type: 'file', mediaType: 'audio/wav', data: 'UklGRg==' },
      ],
    });
  });

  it('gives the text alone when there is no image or audio', () => {
    expect(mcpToolOutput({ text: 'plain', content: [{ type: 'text', text: 'plain' }] })).toBe('plain');
  });
});
