import { describe, expect, it } from 'vitest';
import { fnv1a } from '../../src/context/prefix-hash.js';
import { DEFAULT_PROMPT_SECTIONS } from '../../src/context/prompt-sections.js';
import { SystemPromptBuilder, TOOL_NOTICE_HEADER } from '../../src/context/system-prompt-builder.js';
import { WorkspaceTree } from '../../src/context/workspace-tree.js';
import type { ToolSpec } from '../../src/model/types.js';
import { FakeClock } from '../../src/testing/fake-clock.js';

const tool = (name: string): ToolSpec => ({
  name,
  description: `does ${name}`,
  parameters: { type: 'object' },
});

describe('SystemPromptBuilder', () => {
  it('builds a cached prefix part and a dynamic suffix part', async () => {
    const builder = new SystemPromptBuilder({ clock: new FakeClock(Date.UTC(2026, 0, 13)), os: 'linux' });
    const built = await builder.build({ tools: [tool('read')] });
    expect(built.parts).toEqual([{ text: built.prefix, cache: true }, { text: built.suffix }]);
    expect(built.prefix.startsWith(DEFAULT_PROMPT_SECTIONS.core)).toBe(true);
    expect(built.prefix).toContain(DEFAULT_PROMPT_SECTIONS.workflow);
    expect(built.prefix).toContain(DEFAULT_PROMPT_SECTIONS.outputFormat);
    expect(built.suffix).toContain('**Environment:**\n- OS: linux\n- Timestamp: 2026-01-13T00:00:00.000Z');
  });

  it('keeps the prefix byte-identical across turns while time passes and tools come and go', async () => {
    const clock = new FakeClock(0);
    const builder = new SystemPromptBuilder({ clock });
    const tools = [tool('write'), tool('read')];
    const first = await builder.build({ tools });
    await clock.advance(60_000);
    const second = await builder.build({ tools: [...tools].reverse(), unavailableTools: ['write'] });
    expect(second.prefix).toBe(first.prefix);
    expect(second.prefixHash).toBe(first.prefixHash);
    expect(second.prefixChanged).toBe(false);
    expect(second.parts[0]).toBe(first.parts[0]);
    expect(second.suffix).not.toBe(first.suffix);
  });

  it('reports a changed prefix when the tool set changes', async () => {
    const builder = new SystemPromptBuilder({ clock: new FakeClock() });
    const first = await builder.build({ tools: [tool('read')] });
    const second = await builder.build({ tools: [tool('read'), tool('write')] });
    expect(first.prefixChanged).toBe(true);
    expect(second.prefixChanged).toBe(true);
    expect(second.prefixHash).toBe(fnv1a(second.prefix));
    expect(second.prefixHash).not.toBe(first.prefixHash);
  });

  it('sorts tools by name, in the prompt and in the returned list', async () => {
    const built = await new SystemPromptBuilder({ clock: new FakeClock() }).build({
      tools: [tool('zeta'), tool('alpha'), tool('mid')],
    });
    expect(built.tools.map((t) => t.name)).toEqual(['alpha', 'mid', 'zeta']);
    expect(built.prefix).toContain('- alpha: does alpha\n- mid: does mid\n- zeta: does zeta');
  });

  it('soft-disables unavailable tools with exactly one notice, keeping their schemas', async () => {
    const builder = new SystemPromptBuilder({ clock: new FakeClock() });
    const tools = [tool('deploy'), tool('read'), tool('shell')];
    let built = await builder.build({ tools, unavailableTools: ['shell', 'deploy'] });
    for (let turn = 0; turn < 3; turn++)
      built = await builder.build({ tools, unavailableTools: ['shell', 'deploy', 'shell'] });
    expect(built.tools).toHaveLength(3);
    expect(built.suffix.split(TOOL_NOTICE_HEADER)).toHaveLength(2);
    expect(built.suffix).toContain(
      `${TOOL_NOTICE_HEADER} The following tools are currently unavailable and must NOT be called: deploy, shell.`,
    );
    expect(built.prefix).not.toContain(TOOL_NOTICE_HEADER);
  });

  it('puts the workspace folders, active file and structure in the suffix', async () => {
    const workspace = new WorkspaceTree({
      root: '/repo',
      list: async (p) => (p === '/repo' ? [{ name: 'src', isDirectory: true }] : []),
      clock: new FakeClock(),
    });
    const builder = new SystemPromptBuilder({
      clock: new FakeClock(),
      workspace,
      workspaceFolders: ['/repo'],
    });
    const built = await builder.build({
      activeFile: '/repo/src/a.ts',
      additionalContext: 'extra',
      notes: ['NOTE'],
    });
    expect(built.suffix).toContain(
      '**Workspace:**\n- Folders: /repo\n- Active file: /repo/src/a.ts\nWorkspace structure:\n```\nrepo/\n\tsrc/\n```',
    );
    expect(built.suffix).toContain('**Additional Context:**\nextra');
    expect(built.suffix.endsWith('NOTE')).toBe(true);
    expect(built.prefix).not.toContain('repo/');
  });

  it('invalidate() rebuilds the workspace structure', async () => {
    let listed = 0;
    const workspace = new WorkspaceTree({
      root: '/r',
      list: async () => {
        listed++;
        return [];
      },
      clock: new FakeClock(),
    });
    const builder = new SystemPromptBuilder({ clock: new FakeClock(), workspace });
    await builder.build();
    await builder.build();
    builder.invalidate();
    await builder.build();
    expect(listed).toBe(2);
  });

  it('replaces sections and appends custom instructions to the prefix', async () => {
    const builder = new SystemPromptBuilder({
      clock: new FakeClock(),
      sections: { core: 'You are Tandem.' },
      instructions: ['Always answer in French.'],
    });
    const built = await builder.build();
    expect(built.prefix.startsWith('You are Tandem.')).toBe(true);
    expect(built.prefix.endsWith('Always answer in French.')).toBe(true);
  });

  it('builds a quick prompt of core, style and the request', () => {
    const builder = new SystemPromptBuilder({ sections: { core: 'CORE', style: 'STYLE' } });
    expect(builder.buildQuick('hi')).toBe('CORE\n\nSTYLE\n\nUser Request: hi');
  });
});

describe('fnv1a', () => {
  it('matches the reference FNV-1a values', () => {
    expect(fnv1a('')).toBe('811c9dc5');
    expect(fnv1a('a')).toBe('e40c292c');
    expect(fnv1a('foobar')).toBe('bf9cf968');
  });
});
