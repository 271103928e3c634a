// The API reference at /docs as a newcomer meets it: npm start, then Chromium (Debian's package;
// CHROMIUM_PATH for another) driven by playwright-core. Every operation of openapi.yaml is listed,
// the page loads nothing from beyond this machine, and "Try it" sends POST /plants and
// GET /plants with the token the page offers. A failure saves the page as it was.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot } from '../../infra/local/paths.ts';
import { type LocalService, startLocalService } from '../support/localService.ts';

const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const artifacts = join(repoRoot, '.local', 'test-artifacts');

let service: LocalService;
let browser: Browser;
let page: Page;
const foreignRequests: string[] = [];

// no browser fails the file before any test, rather than showing its tests as skipped
if (!existsSync(chromiumPath)) {
  throw new Error(
    `no Chromium at ${chromiumPath}: the API reference test needs one. Install it ` +
      '(sudo apt-get install chromium), or set CHROMIUM_PATH to a Chromium or Chrome binary.',
  );
}

beforeAll(async () => {
  [service, browser] = await Promise.all([
    startLocalService(),
    chromium.launch({ executablePath: chromiumPath }),
  ]);
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  // a wait gives up well before the test's own timeout, so that a failure leaves its screenshot
  page.setDefaultTimeout(20_000);
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${service.baseUrl}/`) && !url.startsWith('data:'))
      foreignRequests.push(url);
  });
  // each test starts from the loaded page, whichever runs
  await page.goto(`${service.baseUrl}/docs`);
  await page.locator('.opblock').first().waitFor();
  await page.waitForLoadState('networkidle');
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

/** Runs `check` on the page; on failure saves a screenshot and says where. */
const onPage = async (name: string, check: () => Promise<void>) => {
  try {
    await check();
  } catch (error) {
    mkdirSync(artifacts, { recursive: true });
    const file = join(artifacts, `docs-${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    if (error instanceof Error) error.message += `\n(screenshot of the page: ${file})`;
    throw error;
  }
};

/** Expands an operation, sends it with what the page filled in, and answers the live response. */
const tryIt = async (operationId: string) => {
  const operation = page.locator(`#operations-plants-${operationId}`);
  await operation.locator('.opblock-summary').click();
  await operation.locator('button.execute').click();
  const live = operation.locator('.live-responses-table tbody');
  const status = live.locator('.response-col_status');
  await status.waitFor();
  return {
    status: (await status.textContent())?.trim(),
    body: await live.locator('.response-col_description pre').first().textContent(),
  };
};

describe('the API reference at /docs', { timeout: 60_000 }, () => {
  it('lists every operation of openapi.yaml, with nothing loaded from beyond this machine', () =>
    onPage('operations', async () => {
      type Operations = Record<string, Record<string, unknown>>;
      const document = parse(readFileSync(join(repoRoot, 'openapi.yaml'), 'utf8')) as {
        paths: Operations;
        webhooks: Operations;
      };
      const documented = Object.entries({ ...document.paths, ...document.webhooks })
        .flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`))
        .sort();

      const listed = await page
        .locator('.opblock')
        .evaluateAll((blocks) =>
          blocks.map(
            (block) =>
              `${block.querySelector('.opblock-summary-method')?.textContent} ${block.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
          ),
        );

      expect(listed.sort()).toEqual(documented);
      expect(await page.locator('#local-token code').textContent()).toMatch(
        /^[\w-]+\.[\w-]+\.[\w-]+$/,
      );
      expect(foreignRequests).toEqual([]);
    }));

  it('sends POST /plants, GET /plants and PATCH /plants/{id} with the offered token and shows the answers', () =>
    onPage('try-it', async () => {
      // the request body is the document's first example: Monstera, id 1
      expect(await tryIt('createPlant')).toMatchObject({ status: '200' });
      const listed = await tryIt('listPlants');
      expect(listed.status).toBe('200');
      expect(JSON.parse(listed.body ?? '')).toMatchObject([
        { id: 1, name: 'Monstera', tag: 'indoor' },
      ]);
      // PATCH too: the path's example id, the body's first example (a new tag), its media type
      const patched = await tryIt('patchPlant');
      expect(patched.status).toBe('200');
      expect(JSON.parse(patched.body ?? '')).toEqual({ id: 1, name: 'Monstera', tag: 'outdoor' });
    }));
});
