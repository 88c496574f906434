import { readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OWN_FIXTURES as own } from './fixture-files.js';

const TEST_DIR = dirname(fileURLToPath(import.meta.url));

describe('own provider fixtures', () => {
  it('are exactly the files the manifest lists, inside the repository', () => {
    expect(own.dir.startsWith(resolve(TEST_DIR, '../..'))).toBe(true);
    expect(own.files().length).toBeGreaterThan(0);
    expect(own.files()).toEqual([...own.manifest().keys()].sort());
  });

  it('each say what they exercise and parse as JSON or JSON events', () => {
    for (const [file, entry] of own.manifest()) {
      expect(entry.exercises, file).not.toBe('');
      if (file.endsWith('.json')) expect(() => own.json(file), file).not.toThrow();
      else expect(own.events(file).length, file).toBeGreaterThan(0);
    }
  });

  it('are each named by a provider test', () => {
    const tests = readdirSync(TEST_DIR)
      .filter((name) => name.endsWith('.test.ts'))
      .map((name) => readFileSync(resolve(TEST_DIR, name), 'utf8'))
      .join('\n');
    expect(own.files().filter((file) => !tests.includes(file))).toEqual([]);
  });
});
