import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError } from '../../src/core/errors.js';
import { normalizeToolName, ToolRegistry } from '../../src/tools/registry.js';
import { similarity } from '../../src/tools/similarity.js';
import { defineTool } from '../../src/tools/types.js';
import { simpleTool } from './helpers.js';

const noop = () => 'ok';

function registry(...names: string[]): ToolRegistry {
  return new ToolRegistry(names.map((name) => simpleTool(name, noop)));
}

describe('ToolRegistry.resolve', () => {
  it('resolves an exact name without marking it repaired', () => {
    const resolution = registry('read_file', 'write_file').resolve('read_file');
    expect(resolution?.tool.name).toBe('read_file');
    expect(resolution?.requestedName).toBeUndefined();
  });

  it('repairs a name that differs only in case', () => {
    const resolution = registry('read_file').resolve('READ_FILE');
    expect(resolution?.tool.name).toBe('read_file');
    expect(resolution?.requestedName).toBe('READ_FILE');
  });

  it('repairs dashes and spaces to snake_case', () => {
    const tools = registry('read_file');
    expect(tools.resolve('read-file')?.tool.name).toBe('read_file');
    expect(tools.resolve('Read File')?.tool.name).toBe('read_file');
  });

  it('repairs camelCase and PascalCase to snake_case', () => {
    const tools = registry('read_file', 'http_request');
    expect(tools.resolve('readFile')?.tool.name).toBe('read_file');
    expect(tools.resolve('ReadFile')?.tool.name).toBe('read_file');
    expect(tools.resolve('HTTPRequest')?.tool.name).toBe('http_request');
  });

  it('repairs a snake_case call to a camelCase tool', () => {
    expect(registry('readFile').resolve('read_file')?.tool.name).toBe('readFile');
  });

  it('repairs a misspelt name at similarity of at least 0.7', () => {
    const tools = registry('read_file', 'web_search', 'write_file');
    expect(tools.resolve('read_fle')?.tool.name).toBe('read_file');
    expect(tools.resolve('web_serch')).toEqual({ tool: tools.get('web_search'), requestedName: 'web_serch' });
  });

  it('does not match a name below 0.7 similarity', () => {
    const tools = registry('fetch_page', 'list_files');
    expect(similarity('fetch_url', 'fetch_page')).toBeLessThan(0.7);
    expect(tools.resolve('fetch_url')).toBeUndefined();
    expect(tools.resolve('list_dir')).toBeUndefined();
    expect(tools.resolve('')).toBeUndefined();
  });

  it('picks the most similar tool when several pass the cut-off', () => {
    const tools = registry('get_weather', 'get_weather_forecast');
    expect(similarity('get_weather_forcast', 'get_weather')).toBeGreaterThanOrEqual(0.7);
    expect(tools.resolve('get_weather_forcast')?.tool.name).toBe('get_weather_forecast');
  });

  it('never guesses between two tools that normalise to the same name', () => {
    const tools = registry('readFile', 'read_file');
    expect(tools.resolve('read-file')).toBeUndefined();
  });

  it('forgets cached repairs when a tool is registered', () => {
    const tools = registry('read_file');
    expect(tools.resolve('list_dir')).toBeUndefined();
    tools.register(simpleTool('list_dir', noop));
    expect(tools.resolve('list_dir')?.tool.name).toBe('list_dir');
    expect(tools.resolve('List-Dir')?.tool.name).toBe('list_dir');
  });

  it('returns the cached resolution for a repeated repaired name', () => {
    const tools = registry('read_file');
    expect(tools.resolve('readFile')).toBe(tools.resolve('readFile'));
  });
});

describe('ToolRegistry', () => {
  it('rejects a duplicate name with a ConfigError', () => {
    const tools = registry('read_file');
    expect(() => tools.register(simpleTool('read_file', noop))).toThrow(ConfigError);
  });

  it('lists names and specs sorted by name', async () => {
    const tools = registry('write_file', 'add', 'read_file');
    expect(tools.names()).toEqual(['add', 'read_file', 'write_file']);
    expect((await tools.specs()).map((spec) => spec.name)).toEqual(['add', 'read_file', 'write_file']);
    expect(tools.size).toBe(3);
    expect(tools.get('ADD')).toBeUndefined();
  });

  it('returns the same specs array until the registry changes', async () => {
    const tools = registry('b', 'a');
    const first = await tools.specs();
    expect(await tools.specs()).toBe(first);
    expect(tools.builtSpecs()).toBe(first);
    tools.register(simpleTool('c', noop));
    expect(tools.builtSpecs()).toBeUndefined();
    const second = await tools.specs();
    expect(second).not.toBe(first);
    expect(second.map((spec) => spec.name)).toEqual(['a', 'b', 'c']);
  });

  it('builds the specs of a tool registered while an earlier build is under way', async () => {
    const tools = registry('a');
    const early = tools.specs();
    tools.register(simpleTool('b', noop));
    const late = await tools.specs();
    expect((await early).map((spec) => spec.name)).toEqual(['a']);
    expect(late.map((spec) => spec.name)).toEqual(['a', 'b']);
    expect(tools.builtSpecs()).toBe(late);
  });

  it('gives providers the JSON Schema of the zod parameters', async () => {
    const add = defineTool({
      name: 'add',
      description: 'Add',
      parameters: z.object({ a: z.number(), b: z.number().describe('second') }),
      execute: ({ a, b }) => a + b,
    });
    const [spec] = await new ToolRegistry([add]).specs();
    expect(spec?.parameters).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number', description: 'second' } },
      required: ['a', 'b'],
    });
    expect(spec?.parameters).not.toHaveProperty('$schema');
  });
});

describe('normalizeToolName', () => {
  it('turns separators and case boundaries into single underscores', () => {
    expect(normalizeToolName('  Read--File ')).toBe('read_file');
    expect(normalizeToolName('getURLContents')).toBe('get_url_contents');
    expect(normalizeToolName('tool.v2')).toBe('tool_v2');
  });
});

describe('similarity', () => {
  it('matches the ratio of difflib.SequenceMatcher', () => {
    expect(similarity('read_fle', 'read_file')).toBeCloseTo(0.941176, 5);
    expect(similarity('abcd', 'bcde')).toBe(0.75);
    expect(similarity('qabxcd', 'abycdf')).toBeCloseTo(0.666667, 5);
    expect(similarity('search', 'read_file')).toBeCloseTo(0.266667, 5);
    expect(similarity('', '')).toBe(1);
    expect(similarity('abc', '')).toBe(0);
  });
});

describe('defineTool', () => {
  it('rejects a name providers would refuse', () => {
    expect(() => simpleTool('has space', noop)).toThrow(ConfigError);
  });
});
