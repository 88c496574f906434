import { describe, expect, it } from 'vitest';
import { SharedMemory } from '../../src/context/shared-memory.js';

const total = (fields: Record<string, string | readonly unknown[]>) =>
  Object.values(fields).reduce(
    (n, v) => n + (typeof v === 'string' ? v.length : JSON.stringify(v).length),
    0,
  );

describe('SharedMemory', () => {
  it('keeps every field whole while the total fits the budget', () => {
    const memory = new SharedMemory();
    memory.set('researchFindings', 'a'.repeat(3000));
    memory.set('generatedCode', 'b'.repeat(3000));
    expect(memory.fitted()).toEqual(memory.entries());
  });

  it('fits an over-budget memory into 8000 characters, marking what it cut', () => {
    const memory = new SharedMemory();
    const findings = Array.from({ length: 200 }, (_, i) => `Finding ${i} is important.`).join(' ');
    memory.set('researchFindings', findings);
    memory.set('writingDraft', 'word '.repeat(2000));
    memory.set('additionalContext', 'c'.repeat(5000));
    const fitted = memory.fitted();
    expect(total(fitted)).toBeLessThanOrEqual(8000);
    expect(fitted.researchFindings).toMatch(/\. \[\.\.\.truncated\]$/);
    expect(fitted.writingDraft).toMatch(/word \[\.\.\.truncated\]$/);
    expect(fitted.additionalContext).toMatch(/\.\.\.\[truncated\]$/);
  });

  it('gives higher-priority fields a larger share', () => {
    const memory = new SharedMemory({ budget: 3000 });
    memory.set('researchFindings', 'x'.repeat(5000));
    memory.set('executionResults', 'y'.repeat(5000));
    memory.set('dataVisualizations', ['z'.repeat(5000)]);
    memory.set('custom', 'w'.repeat(5000));
    const fitted = memory.fitted();
    expect((fitted.researchFindings as string).length).toBeGreaterThan(
      (fitted.executionResults as string).length,
    );
    expect((fitted.executionResults as string).length).toBeGreaterThan((fitted.custom as string).length);
  });

  it('gives every field at least 200 characters while the budget allows', () => {
    const memory = new SharedMemory({ budget: 8000 });
    memory.set('researchFindings', 'x'.repeat(20_000));
    memory.set('codeLanguage', 'typescript');
    memory.set('additionalContext', 'y'.repeat(20_000));
    memory.set('custom', 'z'.repeat(1000));
    const fitted = memory.fitted();
    expect(fitted.codeLanguage).toBe('typescript');
    expect((fitted.custom as string).length).toBeGreaterThanOrEqual(200);
    expect(total(fitted)).toBeLessThanOrEqual(8000);
  });

  it('takes characters from the lowest priorities first when floors overflow the budget', () => {
    const memory = new SharedMemory({ budget: 600 });
    memory.set('researchFindings', 'x'.repeat(1000));
    memory.set('executionResults', 'y'.repeat(1000));
    memory.set('custom', 'z'.repeat(1000));
    memory.set('other', 'w'.repeat(1000));
    const fitted = memory.fitted();
    expect(total(fitted)).toBeLessThanOrEqual(600);
    // Both top fields keep their 200-character share (less the truncation marker)...
    expect((fitted.researchFindings as string).length).toBeGreaterThan(180);
    expect((fitted.executionResults as string).length).toBeGreaterThan(180);
    // ...while the priority-1 fields went below the floor.
    expect((fitted.custom as string).length + (fitted.other as string).length).toBeLessThanOrEqual(200);
  });

  it('cuts lists to 10 items', () => {
    const memory = new SharedMemory({ budget: 100 });
    memory.set(
      'dataVisualizations',
      Array.from({ length: 30 }, (_, i) => `v${i}`),
    );
    memory.set('researchFindings', 'x'.repeat(200));
    const fitted = memory.fitted();
    expect((fitted.dataVisualizations as string[]).length).toBeLessThanOrEqual(10);
    expect(fitted.dataVisualizations![0]).toBe('v0');
  });

  it('renders a context block with sources, code in a fence and a count of hidden items', () => {
    const memory = new SharedMemory({ budget: 800 });
    memory.set('researchFindings', 'Redis is fast.');
    memory.set('codeLanguage', 'ts');
    memory.set('generatedCode', 'const x = 1;');
    memory.set(
      'researchSources',
      Array.from({ length: 12 }, (_, i) => ({
        title: `T${i}`,
        url: `https://e.org/${i}`,
        snippet: 's'.repeat(300),
      })),
    );
    const text = memory.render();
    expect(text.startsWith('Shared Context:\n\n### Research Findings\nRedis is fast.')).toBe(true);
    expect(text).toContain('### Generated Code\n```ts\nconst x = 1;\n```');
    expect(text).toContain(`- [T0](https://e.org/0): ${'s'.repeat(200)}\n`);
    expect(text).toMatch(/- \.\.\. \(\d+ more items\)/);
    expect(memory.render({ include: ['generatedCode'] })).not.toContain('Research Findings');
  });

  it('renders nothing when empty, and an empty value removes a field', () => {
    const memory = new SharedMemory();
    memory.set('researchFindings', 'x');
    memory.set('researchFindings', '');
    expect(memory.render()).toBe('');
    expect(memory.get('researchFindings')).toBeUndefined();
  });
});
