/**
 * The real frontend: examples/use-chat-page.ts — a React page with
 * `@ai-sdk/react`'s `useChat`, bundled with esbuild, and the tandem route —
 * runs as users run it, against the built package, and headless Chromium
 * chats with it: the tool part shows, its approval is answered, and model
 * text reaches the page as text, never markup.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, packageRoot } from '../package/built-package.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let example: ChildProcess;
let browser: Browser;
let base = '';

beforeAll(async () => {
  assertBuilt();
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM} (set CHROMIUM_PATH)`);
  example = spawn(process.execPath, ['--import', 'tsx', 'examples/use-chat-page.ts'], {
    cwd: packageRoot,
    env: {
      ...process.env,
      TSX_TSCONFIG_PATH: fileURLToPath(new URL('../examples/tsconfig.runtime.json', import.meta.url)),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  base = await new Promise<string>((resolve, reject) => {
    let out = '';
    example.stdout!.on('data', (chunk: Buffer) => {
      out += chunk;
      const address = /useChat page: (http:\/\/\S+)/.exec(out)?.[1];
      if (address) resolve(address);
    });
    example.once('exit', (code) =>
      reject(new Error(`examples/use-chat-page.ts exited with ${code}: ${out}`)),
    );
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  example?.kill();
});

describe('useChat in Chromium', () => {
  it('chats, shows the tool part, answers the approval and gets the rest', async () => {
    const page = await browser.newPage();
    await page.goto(base);
    await page.click('#send');
    await page.waitForSelector('.tool[data-state="approval-requested"] .approve');
    expect(await page.textContent('.assistant .text')).toBe('I will refund it.');
    await page.click('.approve');
    await page.waitForSelector('.tool[data-state="output-available"]');
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'ready');
    expect(await page.textContent('.tool')).toBe('refunded order 42');
    const texts = await page.$$eval('.assistant .text', (ps) => ps.map((p) => p.textContent));
    expect(texts).toEqual(['I will refund it.', 'Done: order 42 is <b id="injected">refunded</b>.']);
    expect(await page.$('#injected')).toBeNull(); // shown as text, never parsed as markup
    await page.close();
  }, 60_000);
});
