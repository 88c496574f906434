import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR, fixtureManifest } from './fixture-server.js';

const TEST_DIR = dirname(fileURLToPath(import.meta.url));

function fixtureFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...fixtureFiles(path));
    else out.push(relative(FIXTURES_DIR, path).split('\\').join('/'));
  }
  return out;
}

const files = fixtureFiles(FIXTURES_DIR)
  .filter((file) => file !== 'README.md' && file !== 'manifest.json')
  .sort();

describe('provider fixture coverage', () => {
  it('finds exactly the fixtures the manifest lists, beside the repository', () => {
    expect(files.length).toBeGreaterThan(0);
    expect(files).toEqual([...fixtureManifest().keys()].sort());
  });

  it('has a provider test naming every fixture', () => {
    const tests = readdirSync(TEST_DIR)
      .filter((name) => name.endsWith('.test.ts'))
      .map((name) => readFileSync(resolve(TEST_DIR, name), 'utf8'))
      .join('\n');
    expect(files.filter((file) => !tests.includes(file))).toEqual([]);
  });
});
