/**
 * `read_file` as the model sees it: text files as text; images, PDFs and
 * audio (known by their first bytes, else their extension) as an attachment
 * the model can look at, up to a size cap; other binary files as a notice.
 * @module
 */
import { mediaTypeFromName, sniffMediaType, toBase64 } from '../core/media.js';
import type { Sandbox } from '../core/sandbox.js';
import type { ToolMediaResult } from '../tools/output.js';
import { SandboxError } from './errors.js';

/** Default cap on a file `read_file` returns as an attachment: 5 MB, what every provider takes per image. */
export const DEFAULT_MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

function asText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

function isAttachable(mediaType: string): boolean {
  return /^(image|audio|video)\//.test(mediaType) || mediaType === 'application/pdf';
}

/**
 * Reads `path` for the model.
 * @throws SandboxError `too_large` for an image, PDF or audio file over `maxAttachmentBytes`.
 */
export async function readForModel(
  sandbox: Sandbox,
  path: string,
  maxAttachmentBytes: number,
): Promise<string | ToolMediaResult> {
  if (!sandbox.readBytes) return sandbox.readFile(path);
  const bytes = await sandbox.readBytes(path);
  const sniffed = sniffMediaType(bytes.subarray(0, 16));
  const text = sniffed ? undefined : asText(bytes);
  if (text !== undefined) return text;
  const mediaType = sniffed ?? mediaTypeFromName(path);
  if (!mediaType || !isAttachable(mediaType)) {
    return `${path} is a binary file (${bytes.length} bytes) that cannot be shown; inspect it with code instead.`;
  }
  if (bytes.length > maxAttachmentBytes) {
    throw new SandboxError(
      'too_large',
      `${path} is a ${mediaType} file of ${bytes.length} bytes, over the ${maxAttachmentBytes}-byte limit for attachments`,
    );
  }
  const filename = path.slice(path.lastIndexOf('/') + 1);
  const type = mediaType.startsWith('image/') ? 'image' : 'file';
  return {
    content: `${path}: ${mediaType}, ${bytes.length} bytes (attached)`,
    attachments: [{ type, mediaType, data: toBase64(bytes), filename }],
  };
}
