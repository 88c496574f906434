/** The HTML report opens in headless Chromium without errors, shows model text as text, and runs no script. */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentTask, dataset, evaluate, htmlReport, includes, planShape } from '../../src/evals/index.js';
import { populationOrchestrator } from './scenario.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const XSS = '<img src=x onerror="alert(1)"><script>alert(2)</script>';

describe('htmlReport in Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-eval-html-'));
  let context: BrowserContext;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(
        `Chromium is missing at ${CHROMIUM}: set CHROMIUM_PATH or run scripts/test-deps.sh as root`,
      );
    context = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
      ],
    });
  }, 30_000);

  afterAll(async () => {
    await context?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('renders each case with its scores and event trace, escaping every text', async () => {
    const data = await dataset([
      { id: 'two-cities', input: ['Lisbon', 'Porto'], expected: '777000' },
      { id: XSS, input: ['Faro'], expected: XSS },
    ]);
    const results = await evaluate({
      name: `cities ${XSS}`,
      dataset: data,
      task: agentTask<string[]>((cities) => populationOrchestrator(cities), {
        prompt: (c) => `Total of ${c.join(', ')}`,
      }),
      scorers: [includes(), planShape()],
    });
    const file = join(dir, 'report.html');
    writeFileSync(file, htmlReport(results));
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('dialog', (d) => {
      problems.push(`dialog ${d.message()}`);
      void d.dismiss();
    });
    await page.goto(pathToFileURL(file).href);
    await page.locator('details').first().click();
    expect(await page.locator('h1').textContent()).toBe(`Eval: cities ${XSS}`);
    expect(await page.locator('img, script').count()).toBe(0);
    const body = await page.locator('body').textContent();
    expect(body).toContain('Together they have 777000 people.');
    expect(body).toContain('lookup_population({"city":"Lisbon"})');
    expect(body).toContain('plan_overview');
    expect(body).toContain('missing "<img src=x');
    expect(problems).toEqual([]);
  }, 60_000);
});
