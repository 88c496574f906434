/**
 * What the built-in skills share: the sandbox they need, workspace-relative
 * paths, fenced code in model replies, and files turned into artifacts (and
 * into image parts when small).
 * @module
 */
import { z } from 'zod/v4';
import { mediaTypeFromName, toBase64 } from '../../core/media.js';
import type { ImagePart } from '../../core/messages.js';
import type { Sandbox } from '../../core/sandbox.js';
import type { SkillContext } from '../context.js';
import { BuiltinSkillError } from './errors.js';

/** Images up to this size are also returned inline, as image parts. */
export const INLINE_IMAGE_MAX_BYTES = 256 * 1024;

/** A file a skill wrote, by its workspace path. */
export const artifactSchema = z.object({
  path: z.string(),
  mediaType: z.string(),
  size: z.number().int().min(0),
});

/** A file a skill wrote. */
export type Artifact = z.output<typeof artifactSchema>;

/** An image part as a skill returns it: base64 text, so the output stays JSON. */
export const imagePartSchema = z.object({
  type: z.literal('image'),
  mediaType: z.string(),
  data: z.string(),
  filename: z.string().optional(),
});

/** The sandbox of the invocation. @throws BuiltinSkillError `no_sandbox`. */
export function requireSandbox(ctx: SkillContext): Sandbox {
  if (ctx.sandbox) return ctx.sandbox;
  throw new BuiltinSkillError(
    'no_sandbox',
    ctx.skillId,
    `Skill '${ctx.skillId}' needs a sandbox: pass one to invokeDirect({ sandbox }), the agent or the orchestrator`,
  );
}

/**
 * `path` as a clean workspace-relative path. The sandbox confines every file
 * operation on its own; this check only gives a clear error early and keeps
 * returned paths tidy.
 * @throws BuiltinSkillError `invalid_path` for absolute paths, `..`, backslashes or NUL.
 */
export function workspacePath(ctx: SkillContext, path: string): string {
  const parts = path.split('/').filter((part) => part !== '' && part !== '.');
  const bad = path.startsWith('/') || /[\\\0]/.test(path) || parts.includes('..') || parts.length === 0;
  if (bad) {
    throw new BuiltinSkillError(
      'invalid_path',
      ctx.skillId,
      `Skill '${ctx.skillId}': "${path}" must be a relative path inside the workspace`,
    );
  }
  return parts.join('/');
}

/** A directory of its own for one invocation: `<base>/<first 8 characters of the invocation id>`. */
export function invocationDir(ctx: SkillContext, base: string): string {
  const id = ctx.invocationId.slice(ctx.invocationId.lastIndexOf('_') + 1).replace(/[^a-zA-Z0-9]/g, '');
  return `${base}/${id.slice(0, 8) || 'run'}`;
}

/** One fenced block of a model reply. */
export interface CodeBlock {
  /** The info string's first word, lower-cased (`python`, `js`…); empty when none. */
  language: string;
  code: string;
}

/** The fenced code blocks of `reply`, in order. */
export function codeBlocks(reply: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  for (const match of reply.matchAll(/```([^\n`]*)\n([\s\S]*?)```/g)) {
    blocks.push({ language: (match[1] ?? '').trim().split(/\s+/)[0]!.toLowerCase(), code: match[2] ?? '' });
  }
  return blocks;
}

/** The first fenced block of `reply`, or the whole reply when it has none. */
export function firstCode(reply: string): string {
  return codeBlocks(reply)[0]?.code ?? reply.trim();
}

/** The last `chars` characters of `text` (error output keeps its end, where the error is). */
export function tail(text: string, chars = 2000): string {
  return text.length > chars ? `…${text.slice(-chars)}` : text;
}

/** The media type of a file by its extension (`application/octet-stream` when unknown). */
export function mediaTypeOf(path: string): string {
  return mediaTypeFromName(path) ?? 'application/octet-stream';
}

/** The bytes of a workspace file (as UTF-8 text on sandboxes without `readBytes`). */
export async function readBytes(sandbox: Sandbox, path: string): Promise<Uint8Array> {
  return sandbox.readBytes ? sandbox.readBytes(path) : new TextEncoder().encode(await sandbox.readFile(path));
}

/** An image file as an image part, when it is small enough to inline. */
export async function inlineImage(
  sandbox: Sandbox,
  artifact: Artifact,
  maxBytes = INLINE_IMAGE_MAX_BYTES,
): Promise<(ImagePart & { data: string }) | undefined> {
  if (!artifact.mediaType.startsWith('image/') || artifact.size > maxBytes) return undefined;
  const filename = artifact.path.slice(artifact.path.lastIndexOf('/') + 1);
  const data = toBase64(await readBytes(sandbox, artifact.path));
  return { type: 'image', mediaType: artifact.mediaType, data, filename };
}

/**
 * The files under `dir` (recursive) as artifacts, filtered by `accept`; an
 * absent directory has none.
 */
export async function listArtifacts(
  sandbox: Sandbox,
  dir: string,
  accept: (path: string) => boolean = () => true,
): Promise<Artifact[]> {
  const entries = await sandbox.listFiles(dir, { recursive: true }).catch(() => []);
  return entries
    .filter((entry) => entry.type === 'file' && accept(entry.path))
    .map((entry) => ({ path: entry.path, mediaType: mediaTypeOf(entry.path), size: entry.size }));
}
