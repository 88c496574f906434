/**
 * MCP resources: listed and read by the application (`connection.readResource`),
 * or by the model through two tools, `list_resources` and `read_resource`.
 * @module
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { describeMedia } from '../core/media.js';
import type { MediaPart } from '../core/messages.js';
import { jsonSchema } from '../tools/json-schema.js';
import { defineTool, type Tool } from '../tools/types.js';
import { McpToolError, mcpRequest } from './errors.js';
import { mcpToolName } from './names.js';
import { listAllPages, type McpRequestOptions, signalOption } from './pages.js';
import { type McpResourceContent, resourcePart } from './parts.js';

/** A resource as `resources/list` describes it. */
export type McpResource = Resource;

/** A parameterised resource (`uriTemplate`, RFC 6570) as `resources/templates/list` describes it. */
export type McpResourceTemplate = ResourceTemplate;

/** The part of the SDK's `Client` resources use. */
export type McpResourceClient = Pick<Client, 'listResources' | 'listResourceTemplates' | 'readResource'>;

/** A read resource. */
export interface McpResourceRead {
  uri: string;
  /**
   * Its text: the text of a single text content as is; several contents each
   * under a `[resource: <uri>]` line; binary contents as a placeholder naming
   * media type and size.
   */
  text: string;
  /** Binary contents as image or file parts. */
  attachments: MediaPart[];
  /** The contents as the server sent them. */
  contents: McpResourceContent[];
}

/** Every resource the server lists, following `nextCursor`. */
export function listMcpResources(
  client: Pick<Client, 'listResources'>,
  options: McpRequestOptions = {},
): Promise<McpResource[]> {
  const { signal } = options;
  return listAllPages(
    'resources/list',
    async (cursor) => {
      const page = await client.listResources(cursor === undefined ? {} : { cursor }, signalOption(signal));
      return { items: page.resources, nextCursor: page.nextCursor };
    },
    signal,
  );
}

/** Every resource template the server lists; none from a server that does not implement the method. */
export async function listMcpResourceTemplates(
  client: Pick<Client, 'listResourceTemplates'>,
  options: McpRequestOptions = {},
): Promise<McpResourceTemplate[]> {
  const { signal } = options;
  try {
    return await listAllPages(
      'resources/templates/list',
      async (cursor) => {
        const page = await client.listResourceTemplates(
          cursor === undefined ? {} : { cursor },
          signalOption(signal),
        );
        return { items: page.resourceTemplates, nextCursor: page.nextCursor };
      },
      signal,
    );
  } catch (error) {
    if (error instanceof McpToolError && error.code === ErrorCode.MethodNotFound) return [];
    throw error;
  }
}

/**
 * Reads one resource.
 * @throws {@link McpToolError} (kind `protocol` for an unknown URI) or `AbortError`.
 */
export async function readMcpResource(
  client: Pick<Client, 'readResource'>,
  uri: string,
  options: McpRequestOptions = {},
): Promise<McpResourceRead> {
  const { signal } = options;
  const read = await mcpRequest(undefined, signal, () => client.readResource({ uri }, signalOption(signal)));
  const contents = read.contents as McpResourceContent[];
  const attachments: MediaPart[] = [];
  const texts = contents.map((content) => {
    const part = resourcePart(content);
    if (part.type === 'text') return content.text ?? '';
    attachments.push(part);
    return describeMedia(part);
  });
  const only = contents.length === 1 && contents[0]!.text !== undefined;
  const text = only ? texts[0]! : contents.map((c, i) => `[resource: ${c.uri}]\n${texts[i]}`).join('\n\n');
  return { uri, text, attachments, contents };
}

/** Options of {@link mcpResourceTools}. */
export interface McpResourceToolsOptions {
  /** Prepended to both names, as for the server's tools. */
  prefix?: string;
  /** Output cap of both tools. Default: the runner's. */
  maxOutputChars?: number;
}

/**
 * Two tools that let the model browse the server's resources:
 * `list_resources` (resources and templates, one per line) and
 * `read_resource` (`{ uri }` → the resource's text). Both are read-only.
 */
export function mcpResourceTools(client: McpResourceClient, options: McpResourceToolsOptions = {}): Tool[] {
  const list = defineTool({
    name: mcpToolName('list_resources', options.prefix),
    description:
      'List the resources (documents, files, records) the server offers, with their URIs; templates show URIs to fill in.',
    parameters: jsonSchema({ type: 'object', properties: {} }),
    risk: 'safe',
    parallelSafe: true,
    maxOutputChars: options.maxOutputChars,
    async execute(_args, ctx) {
      const [resources, templates] = await Promise.all([
        listMcpResources(client, ctx),
        listMcpResourceTemplates(client, ctx),
      ]);
      return resourceListing(resources, templates);
    },
  });
  const read = defineTool({
    name: mcpToolName('read_resource', options.prefix),
    description: 'Read one resource of the server by its URI (from list_resources, or a template filled in).',
    parameters: jsonSchema<{ uri: string }>({
      type: 'object',
      properties: { uri: { type: 'string', description: 'The resource URI' } },
      required: ['uri'],
    }),
    risk: 'safe',
    parallelSafe: true,
    maxOutputChars: options.maxOutputChars,
    async execute({ uri }, ctx) {
      return (await readMcpResource(client, uri, ctx)).text;
    },
  });
  return [list, read];
}

function resourceListing(resources: McpResource[], templates: McpResourceTemplate[]): string {
  const lines = resources.map((r) => entry(r.uri, r));
  if (templates.length > 0) {
    lines.push('', 'Templates (fill in the {placeholders}):');
    for (const t of templates) lines.push(entry(t.uriTemplate, t));
  }
  return lines.length > 0 ? lines.join('\n') : 'The server lists no resources.';
}

/** One listing line: `uri` (a resource's URI or a template's) and what `listed` says of it. */
function entry(uri: string, listed: McpResource | McpResourceTemplate): string {
  const { name, mimeType, description } = listed;
  const type = mimeType ? ` (${mimeType})` : '';
  return `${uri} — ${name}${type}${description ? `: ${description}` : ''}`;
}
