// The demo page (`npm run dev`), built, as a person sees it. Most tests run in
// a Chromium without WebGPU, on the scripted fake model (demo/fake-script.ts);
// some make the page believe it has a GPU (its model worker knows better), and
// one runs on Chromium's software WebGPU, where WebLLM itself loads; the CPU
// tests run wllama (llama.cpp in WebAssembly) on a tiny GGUF served with the
// demo (scripts/tiny-gguf.mjs writes it to dist/demo/models/). Model
// downloads never reach the network: manifests are served here, the rest is
// refused. Screenshots go to test-results/screenshots/ for a person to look at.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { test as base, expect, type BrowserContext, type Locator, type Page } from '@playwright/test';

const DEMO = 'http://127.0.0.1:4174/';
const SHOTS = 'test-results/screenshots';

interface DemoOptions {
  /** Console errors the test causes on purpose (refused downloads log "Failed to load resource"). */
  allowedConsoleErrors: RegExp | null;
}

const test = base.extend<{ demo: Page } & DemoOptions>({
  allowedConsoleErrors: [null, { option: true }],
  demo: async ({ page, allowedConsoleErrors }, use) => {
    const errors = watchErrors(page, allowedConsoleErrors);
    await page.goto(DEMO);
    await ready(page);
    await use(page);
    expect(errors, 'errors in the page').toEqual([]);
  },
});

function watchErrors(page: Page, allowed: RegExp | null = null): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !allowed?.test(message.text())) errors.push(message.text());
  });
  // window.alert and friends would mean model text ran as code.
  page.on('dialog', (dialog) => {
    errors.push(`unexpected ${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return errors;
}

async function ready(page: Page): Promise<void> {
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
}

const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/demo-${name}.png` });
const input = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const lastTurn = (page: Page) => page.locator('.turn').last();
const banner = (page: Page) => page.locator('#banner');
const picker = (page: Page) => page.getByRole('dialog', { name: 'Choose a model' });
const modelRow = (page: Page, label: string) => picker(page).locator('.model-row').filter({ has: page.locator('.model-label', { hasText: new RegExp(`^${label.replace(/[.()]/g, '\\$&')}(Downloaded)?$`) }) });

/** A row marked downloaded, ready to use. */
async function expectDownloaded(page: Page, label: string) {
  const row = modelRow(page, label);
  await expect(row).toHaveAttribute('data-cached', 'true');
  await expect(row.locator('.badge.ok')).toHaveText('Downloaded');
  await expect(row.getByRole('button', { name: `Use ${label}` })).toBeEnabled();
  return row;
}

/** Delete a downloaded model as a person does: the confirm names its size, a toast says it is gone (the cache is asked in a worker of its own: a moment), the row offers the download again. */
async function deleteDownloaded(page: Page, label: string, size: string) {
  const row = modelRow(page, label);
  await row.getByRole('button', { name: `Delete the downloaded ${label}` }).click();
  const confirm = page.getByRole('dialog', { name: `Delete ${label}?` });
  await expect(confirm).toContainText(`(${size})`);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.locator('.toast')).toContainText(`Deleted the downloaded ${label}.`, { timeout: 20_000 });
  await expect(row).toHaveAttribute('data-cached', 'false');
  await expect(row.getByRole('button', { name: `Download ${label}` })).toBeEnabled();
}

async function send(page: Page, text: string): Promise<Locator> {
  await input(page).fill(text);
  await input(page).press('Enter');
  await expect(page.locator('.message.user').last()).toHaveText(text);
  return lastTurn(page);
}

/** Send and wait for the whole reply. */
async function ask(page: Page, text: string): Promise<Locator> {
  const turn = await send(page, text);
  await expect(turn).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
  return turn;
}

function chatItem(page: Page, title: string): Locator {
  return page.locator('.chat-item').filter({ has: page.locator('.chat-title', { hasText: title }) });
}

async function openPicker(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: /Choose a model/ }).first().click();
  await expect(picker(page)).toBeVisible();
  // As a person would, pick once the list has stopped changing: a click while
  // it fills in could land on the row that moved under the pointer.
  await expect(picker(page).locator('.models-checking')).toHaveCount(0);
  return picker(page);
}

/** A page that believes it has a WebGPU adapter with shader-f16. The model's worker has none, so real loads fail before any download. */
async function pretendGpu(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const adapter = { features: new Set(['shader-f16']) };
    Object.defineProperty(Navigator.prototype, 'gpu', { configurable: true, get: () => ({ requestAdapter: async () => adapter }) });
  });
}

/** Download sizes, as the models' own manifests would say (served here; every other request to Hugging Face is refused). */
const SIZES: Record<string, number> = {
  'Qwen2.5-0.5B-Instruct': 290_000_000,
  'Qwen2.5-1.5B-Instruct': 880_000_000,
  'Qwen2.5-3B-Instruct': 1_750_000_000,
  'Qwen3-0.6B': 350_000_000,
  'Qwen3-1.7B': 980_000_000,
  'Llama-3.2-1B-Instruct': 700_000_000,
  'Llama-3.2-3B-Instruct': 1_800_000_000,
  'Hermes-3-Llama-3.2-3B': 1_800_000_000,
};

function manifest(bytes: number) {
  return { metadata: { ParamSize: 1, ParamBytes: bytes, BitsPerParam: 4 }, records: [{ dataPath: 'params_shard_0.bin', format: 'raw-shard', nbytes: bytes, records: [], md5sum: '' }] };
}

/** A curated GGUF's size, as its server would say it to a HEAD request (the curated list knows no exact size for this one). */
const GGUF_SIZES: Record<string, number> = { 'Qwen2.5-0.5B-Instruct-Q4_K_M.gguf': 398_000_000 };

/** Answer HEAD requests for the curated GGUFs with their sizes; anything else goes on to the next handler. */
async function ggufSizes(context: BrowserContext): Promise<void> {
  await context.route(/^https:\/\/huggingface\.co\/.+\.gguf$/, (route) => {
    const bytes = GGUF_SIZES[route.request().url().split('/').pop()!];
    if (route.request().method() !== 'HEAD' || !bytes) return route.fallback();
    return route.fulfill({ headers: { 'content-length': String(bytes), 'access-control-allow-origin': '*' } });
  });
}

test.beforeEach(async ({ context }) => ggufSizes(context));

/** Serve the models' manifests (and the GGUFs' sizes); refuse everything else from off this machine. Returns the URLs asked for, a HEAD as `HEAD <url>`. */
async function offline(context: BrowserContext): Promise<string[]> {
  const asked: string[] = [];
  await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => {
    const url = route.request().url();
    if (route.request().method() === 'HEAD' && url.endsWith('.gguf')) {
      asked.push(`HEAD ${url}`);
      return route.fallback();
    }
    asked.push(url);
    const model = /huggingface\.co\/mlc-ai\/(.+)-q4f(?:16|32)_1-MLC\/resolve\/main\/tensor-cache\.json$/.exec(url)?.[1];
    if (model && SIZES[model]) return route.fulfill({ json: manifest(SIZES[model]), headers: { 'access-control-allow-origin': '*' } });
    return route.abort('internetdisconnected');
  });
  return asked;
}

test('without WebGPU: a banner, the fake model, and a reply streamed word by word', async ({ demo: page }) => {
  // The story is slow on purpose (to be watched, and stopped): give it room on a busy machine.
  test.setTimeout(60_000);
  await expect(banner(page)).toBeVisible();
  await expect(banner(page)).toContainText('No WebGPU in this browser');
  // Where WebGPU is, folded away until asked for.
  await expect(banner(page).getByText('recent Chrome and Edge')).toBeHidden();
  await banner(page).getByText('Where does WebGPU work?').click();
  await expect(banner(page).getByText('recent Chrome and Edge')).toBeVisible();
  await expect(banner(page)).toContainText('--enable-unsafe-webgpu');
  await expect(page.locator('#model')).toHaveText('fake-model · scripted fake · hermes tool calls');
  await expect(page.getByRole('button', { name: /Choose a model/ })).toHaveText('Scripted fake model');
  await expect(page.getByRole('button', { name: 'Tell me a long story' })).toBeVisible();
  await shot(page, 'first-visit-no-webgpu');

  // The picker: what runs here first (the CPU models, then the scripts); the GPU models listed, but they need WebGPU.
  const models = await openPicker(page);
  await expect(models.locator('.models-group')).toHaveText(['Runs on the CPU (no GPU needed)', 'Scripted (nothing to download)', 'On your GPU']);
  await expect(models.getByRole('button', { name: 'Use Scripted fake model', exact: true })).toHaveText('In use');
  await expect(models.getByRole('button', { name: 'Download Qwen2.5 1.5B' })).toBeDisabled();
  await expect(modelRow(page, 'Qwen2.5 1.5B')).toContainText('Needs WebGPU.');
  await expect(modelRow(page, 'Qwen2.5 1.5B').locator('.model-facts')).toHaveText('1.6 GB GPU memory · 4K-token context');
  await shot(page, 'picker-no-webgpu');
  await page.keyboard.press('Escape');
  await expect(models).toBeHidden();

  // Shift+Enter breaks the line; Enter sends.
  await input(page).fill('Tell me a long');
  await input(page).press('Shift+Enter');
  await input(page).pressSequentially('story');
  await expect(input(page)).toHaveValue('Tell me a long\nstory');
  await input(page).press('Enter');
  await expect(input(page)).toHaveValue('');
  await expect(page.locator('.message.user .bubble')).toHaveText('Tell me a long\nstory');

  // Part of the reply is on screen while the rest is still being written.
  const turn = lastTurn(page);
  await page.waitForFunction(() => {
    const turn = document.querySelector('.turn:last-of-type');
    return turn?.getAttribute('data-state') === 'streaming' && turn.textContent?.includes('lighthouse keeper');
  });
  await expect(page.locator('#send')).toHaveText('Stop');
  await expect(turn).not.toContainText('The end.');
  await page.waitForFunction(() => {
    const turn = document.querySelector('.turn:last-of-type');
    return turn?.getAttribute('data-state') === 'streaming' && turn.textContent?.includes('weights');
  });
  await shot(page, 'streaming');
  await expect(turn).toHaveAttribute('data-state', 'done', { timeout: 40_000 });
  await expect(turn).toContainText('The end.');
  await expect(turn.getByRole('heading', { name: "The lighthouse keeper's model" })).toBeVisible();
  await expect(turn.locator('ol > li')).toHaveCount(3);
  await expect(turn.locator('.turn-meta')).toContainText('1 model call');
  await expect(turn.locator('.turn-stats')).toHaveText(/^1 model call · \d+ tokens · [\d.]+ (?:ms|s) · [\d.]+ tokens\/s$/);
  await expect(page.locator('#send')).toHaveText('Send');
});

test('tool cards: arguments, progress, result and duration; a raw tool the page answers', async ({ demo: page }) => {
  const turn = await send(page, 'What is the weather in Boston and Oslo?');
  const boston = turn.locator('.tool-card[data-tool="get_weather"]').first();
  // Progress shows while the tool runs (it takes about half a second).
  await page.waitForFunction(() => [...document.querySelectorAll('.tool-card .tool-progress')].some((p) => !(p as HTMLElement).hidden && /Finding|forecast/.test(p.textContent ?? '')));
  await expect(turn).toHaveAttribute('data-state', 'done', { timeout: 20_000 });

  await expect(turn.locator('.tool-card')).toHaveCount(2);
  await expect(boston).toHaveAttribute('data-state', 'done');
  await expect(boston.locator('.tool-args')).toHaveText('{ "location": "Boston" }');
  await expect(boston.locator('.tool-result')).toContainText('"forecast":');
  await expect(boston.locator('.tool-duration')).toHaveText(/^\d+ ms$|^\d+(\.\d)? s$/);
  await expect(boston.locator('.tool-by')).toHaveText('run by the agent');
  await expect(turn.locator('.tool-card').nth(1).locator('.tool-args')).toHaveText('{ "location": "Oslo" }');
  // The text before the calls, then the cards, then the answer written from their results.
  await expect(turn.locator('.text').first()).toHaveText('Let me check those forecasts.');
  await expect(turn.locator('.text').last()).toContainText('The forecast for Boston is');
  await expect(turn.locator('.text').last()).toContainText('The forecast for Oslo is');
  await expect(turn.locator('.turn-meta')).toContainText('2 model calls · 2 tool calls');

  const page2 = await ask(page, 'What page am I on?');
  const info = page2.locator('.tool-card[data-tool="get_page_info"]');
  await expect(info).toHaveAttribute('data-kind', 'raw');
  await expect(info.locator('.tool-by')).toHaveText('answered by the page');
  await expect(info.locator('.tool-result')).toContainText('"title": "tabagent demo"');
  await expect(page2.locator('.text').last()).toContainText('You are on tabagent demo');
  await expect(page2.locator('.turn-meta')).toContainText('2 model calls · 1 tool call');
  await shot(page, 'chat-with-tools');
});

test('copy an answer or a code block; regenerate the last answer', async ({ demo: page, context }) => {
  test.setTimeout(60_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
  await ask(page, 'What is the weather in Boston?');
  const turn = await ask(page, 'Show me some HTML');
  const first = page.locator('.turn').first();
  // Only the last answer can be regenerated.
  await expect(first.getByRole('button', { name: 'Regenerate the answer' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Regenerate the answer' })).toHaveCount(1);

  await turn.getByRole('button', { name: 'Copy code' }).click();
  await expect(turn.getByRole('button', { name: 'Copy code' })).toHaveText('Copied');
  expect(await clipboard()).toBe('<p onclick="alert(1)">code blocks stay text</p>\n');
  // The answer is copied as the model wrote it: Markdown, not the page's HTML.
  await turn.getByRole('button', { name: 'Copy the answer' }).click();
  const copied = await clipboard();
  expect(copied).toMatch(/^Markdown is rendered, HTML is not\. Here is \*\*bold\*\*/);
  expect(copied).toContain('| `get_weather` | run by the agent |');

  // Regenerate: the answer is replaced in place, not added; the chat keeps one answer for the question.
  const before = await page.locator('.turn').count();
  await turn.getByRole('button', { name: 'Regenerate the answer' }).click();
  await expect(lastTurn(page)).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
  await expect(page.locator('.turn')).toHaveCount(before);
  await expect(page.locator('.message.user')).toHaveText(['What is the weather in Boston?', 'Show me some HTML']);
  await expect(lastTurn(page)).toContainText('Markdown is rendered, HTML is not.');
  await expect(chatItem(page, 'What is the weather in Boston?').locator('.chat-meta')).toContainText('6 messages');
  // A regenerated answer after tool calls keeps the calls and their results: only the answer is new.
  await page.getByRole('button', { name: 'New chat' }).click();
  const weather = await ask(page, 'What is the weather in Lima?');
  await weather.getByRole('button', { name: 'Regenerate the answer' }).click();
  await expect(lastTurn(page)).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
  await expect(lastTurn(page).locator('.tool-card')).toHaveCount(1);
  await expect(lastTurn(page).locator('.text').last()).toContainText('The forecast for Lima');
  await expect(lastTurn(page).locator('.text')).toHaveCount(2);
});

test('approval: the page asks in a dialog; Allow runs the tool, Deny and Escape do not', async ({ demo: page }) => {
  const first = await send(page, 'Delete notes.txt');
  const dialog = page.getByRole('dialog', { name: 'Allow delete_file?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('.dialog-args')).toContainText('"path": "notes.txt"');
  await expect(dialog).toContainText('cannot be undone');
  const card = first.locator('.tool-card[data-tool="delete_file"]');
  await expect(card).toHaveAttribute('data-state', 'approval');
  await expect(card.locator('.tool-status')).toHaveText('waiting for your approval');
  await expect(card.locator('.tool-badge')).toHaveText('destructive');
  // The safe answer has the focus, so a stray Enter does not delete anything.
  await expect(dialog.getByRole('button', { name: 'Deny' })).toBeFocused();
  await shot(page, 'approval');

  await dialog.getByRole('button', { name: 'Allow' }).click();
  await expect(dialog).toBeHidden();
  await expect(first).toHaveAttribute('data-state', 'done');
  await expect(first.locator('.tool-card[data-tool="delete_file"]')).toHaveAttribute('data-state', 'done');
  await expect(first.locator('.tool-card .tool-result')).toContainText('"deleted": "notes.txt"');
  await expect(first.locator('.text').last()).toContainText('Done: notes.txt is gone.');

  const second = await send(page, 'Delete todo.md');
  await dialog.getByRole('button', { name: 'Deny' }).click();
  await expect(second).toHaveAttribute('data-state', 'done');
  const denied = second.locator('.tool-card');
  await expect(denied).toHaveAttribute('data-state', 'denied');
  await expect(denied.locator('.tool-result')).toHaveText('the user denied it');
  await expect(second.locator('.text').last()).toContainText('Okay, I left todo.md alone');

  // Escape in the dialog answers "no"; it does not stop the reply.
  const third = await send(page, 'Delete draft.docx');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(third).toHaveAttribute('data-state', 'done');
  await expect(third.locator('.tool-card')).toHaveAttribute('data-state', 'denied');
  await expect(third.locator('.text').last()).toContainText('Okay, I left draft.docx alone');
});

test('the chat list: new chat, switch, rename, export, import, delete', async ({ demo: page }, testInfo) => {
  await ask(page, 'What is the weather in Boston?');
  await expect(chatItem(page, 'What is the weather in Boston?')).toHaveClass(/active/);

  await page.getByRole('button', { name: 'New chat' }).click();
  await expect(page.locator('.empty')).toBeVisible();
  await expect(page.locator('.turn')).toHaveCount(0);
  await ask(page, 'What page am I on?');
  await expect(page.locator('.chat-item')).toHaveCount(2);
  // Newest first.
  await expect(page.locator('.chat-title')).toHaveText(['What page am I on?', 'What is the weather in Boston?']);

  // Switch back: the stored chat is drawn again, tool card included.
  await chatItem(page, 'What is the weather in Boston?').locator('.chat-open').click();
  await expect(chatItem(page, 'What is the weather in Boston?')).toHaveClass(/active/);
  await expect(page.locator('.message.user')).toHaveText(['What is the weather in Boston?']);
  await expect(page.locator('.tool-card[data-tool="get_weather"]')).toHaveAttribute('data-state', 'done');
  await expect(page.locator('.turn .text').last()).toContainText('The forecast for Boston');

  // Rename in place.
  await page.getByRole('button', { name: 'Rename “What is the weather in Boston?”' }).click();
  const title = page.getByRole('textbox', { name: 'Chat title' });
  await title.fill('Boston weather');
  await title.press('Enter');
  await expect(chatItem(page, 'Boston weather')).toBeVisible();

  // Export: a JSON file in tabagent's chat format.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export “Boston weather” as JSON' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('boston-weather.tabagent.json');
  const file = testInfo.outputPath('export.json');
  await download.saveAs(file);
  const exported = JSON.parse(await readFile(file, 'utf8'));
  expect(exported.format).toBe('tabagent.chat');
  expect(exported.version).toBe(1);
  expect(exported.chat.title).toBe('Boston weather');
  expect(exported.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);

  // Import it back: a third chat, opened.
  await page.locator('#import').setInputFiles(file);
  await expect(page.locator('.chat-item')).toHaveCount(3);
  await expect(page.locator('.toast')).toContainText('Imported “Boston weather”');
  await expect(page.locator('.chat-item.active .chat-title')).toHaveText('Boston weather');

  // A broken file is refused in one sentence: the first problem, and how many more.
  const broken = testInfo.outputPath('broken.json');
  await writeFile(broken, JSON.stringify({ ...exported, messages: [{ role: 'robot' }, { role: 'user' }, { role: 'user', content: 1 }] }));
  await page.locator('#import').setInputFiles(broken);
  const refusal = page.locator('.toast.error');
  await expect(refusal).toHaveText(/^Could not import “broken\.json”: messages\.0\.role: [^;]+, and \d+ more problems?\.$/);
  await writeFile(broken, 'not json at all');
  await page.locator('#import').setInputFiles(broken);
  await expect(refusal.last()).toHaveText('Could not import “broken.json”: it is not JSON.');
  await expect(page.locator('.chat-item')).toHaveCount(3);
  // Notices can be dismissed (errors stay until then, or for 15 s).
  await expect(refusal).toHaveCount(2);
  await refusal.first().getByRole('button', { name: 'Dismiss' }).click();
  await expect(refusal).toHaveCount(1);
  await refusal.first().getByRole('button', { name: 'Dismiss' }).click();
  await expect(refusal).toHaveCount(0);

  // Delete asks first; "Keep it" keeps it.
  const doomed = chatItem(page, 'What page am I on?');
  await page.getByRole('button', { name: 'Delete “What page am I on?”' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this chat?' });
  await confirm.getByRole('button', { name: 'Keep it' }).click();
  await expect(doomed).toHaveCount(1);
  await page.getByRole('button', { name: 'Delete “What page am I on?”' }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(doomed).toHaveCount(0);
  await expect(page.locator('.chat-item')).toHaveCount(2);
  await shot(page, 'chat-list');
});

test('chats survive a reload, stats line included', async ({ demo: page }) => {
  await ask(page, 'What is the weather in Boston?');
  await ask(page, 'What page am I on?');
  const stats = await page.locator('.turn-stats').allTextContents();
  expect(stats[0]).toMatch(/^2 model calls · 1 tool call · \d+ tokens · /);
  const durations = await page.locator('.tool-duration').allTextContents();
  await page.reload();
  await ready(page);
  await expect(page.locator('.message.user')).toHaveText(['What is the weather in Boston?', 'What page am I on?']);
  await expect(page.locator('.tool-card')).toHaveCount(2);
  await expect(page.locator('.tool-card[data-tool="get_weather"] .tool-result')).toContainText('"location": "Boston"');
  await expect(page.locator('.tool-card[data-tool="get_page_info"]')).toHaveAttribute('data-state', 'done');
  await expect(page.locator('.turn').last()).toContainText('You are on tabagent demo');
  await expect(page.locator('.chat-item.active .chat-title')).toHaveText('What is the weather in Boston?');
  await expect(page.locator('.chat-item .chat-meta')).toContainText('8 messages');
  // What each answer cost, and how long each tool ran, read the same after the reload.
  await expect(page.locator('.turn-stats')).toHaveText(stats);
  await expect(page.locator('.tool-duration')).toHaveText(durations);

  // And the chat goes on where it stopped.
  const turn = await ask(page, 'What is the weather in Lima?');
  await expect(turn).toContainText('The forecast for Lima');
});

test('a second tab on the same chat follows along, and waits its turn', async ({ demo: page, context }) => {
  test.setTimeout(60_000);
  await ask(page, 'What is the weather in Boston?');
  const other = await context.newPage();
  const errors = watchErrors(other);
  await other.goto(DEMO);
  await ready(other);
  await expect(other.locator('.message.user')).toHaveText(['What is the weather in Boston?']);
  await ask(page, 'What page am I on?');
  await expect(other.locator('.message.user')).toHaveText(['What is the weather in Boston?', 'What page am I on?']);
  await expect(other.locator('.tool-card[data-tool="get_page_info"]')).toHaveAttribute('data-state', 'done');
  await expect(other.locator('.chat-item .chat-meta')).toContainText('8 messages');

  // Both tabs send at once: the second waits, and says so, while the first tab's reply runs.
  const story = await send(page, 'Tell me a long story');
  await expect(story.locator('.text')).toContainText('lighthouse keeper');
  const waiting = await send(other, 'What is the weather in Lima?');
  await expect(waiting.locator('.turn-waiting')).toHaveText('Waiting for the other tab: its reply in this chat comes first…');
  await shot(other, 'second-tab-waiting');
  // Then it runs, after the story, which it shows above its own message.
  await expect(waiting).toHaveAttribute('data-state', 'done', { timeout: 40_000 });
  await expect(other.locator('.message.user')).toHaveText(['What is the weather in Boston?', 'What page am I on?', 'Tell me a long story', 'What is the weather in Lima?']);
  await expect(other.locator('.turn').nth(2)).toContainText('The end.');
  await expect(other.locator('.turn').last()).toContainText('The forecast for Lima');
  await expect(other.locator('.turn-waiting:visible')).toHaveCount(0);
  // And the first tab shows the second tab's turn without a reload.
  await expect(page.locator('.message.user')).toHaveText(['What is the weather in Boston?', 'What page am I on?', 'Tell me a long story', 'What is the weather in Lima?']);
  await expect(page.locator('.turn').last()).toContainText('The forecast for Lima');
  await expect(page.locator('.turn').last()).toHaveAttribute('data-state', 'done');
  expect(errors).toEqual([]);
});

test('Escape stops a reply; what was said is kept, and the chat goes on', async ({ demo: page }) => {
  const turn = await send(page, 'Tell me a long story');
  await expect(turn.locator('.text')).toContainText('lighthouse keeper');
  await page.keyboard.press('Escape');
  await expect(turn).toHaveAttribute('data-state', 'stopped');
  await expect(turn.locator('.turn-meta')).toContainText('Stopped');
  await expect(turn).toContainText('lighthouse keeper');
  await expect(turn).not.toContainText('The end.');
  await expect(page.locator('#send')).toHaveText('Send');

  // The Stop button does the same.
  const again = await send(page, 'Tell me a long story again');
  await expect(again.locator('.text')).toContainText('lighthouse');
  await page.getByRole('button', { name: 'Stop the reply (Escape)' }).click();
  await expect(again).toHaveAttribute('data-state', 'stopped');

  const next = await ask(page, 'What is the weather in Boston?');
  await expect(next).toContainText('The forecast for Boston');

  // A stopped reply is stored as stopped.
  await page.reload();
  await ready(page);
  await expect(page.locator('.turn').first()).toHaveAttribute('data-state', 'stopped');
  await expect(page.locator('.turn').first()).not.toContainText('The end.');
});

test('model output is Markdown, never HTML: tables and nested lists render; HTML, scripts and javascript: links never run', async ({ demo: page }) => {
  const turn = await ask(page, 'Show me some HTML');
  // Shown as the characters the model wrote…
  await expect(turn).toContainText('<img src=x onerror="window.__xss=1">');
  await expect(turn).toContainText('<script>window.__xss=1</script>');
  await expect(turn).toContainText('<a href="javascript:window.__xss=1">a raw anchor</a>');
  await expect(turn.locator('pre code')).toHaveText('<p onclick="alert(1)">code blocks stay text</p>');
  // …never as elements.
  await expect(page.locator('.log img, .log script, .log iframe, .log [onerror], .log [onclick]')).toHaveCount(0);
  await expect(page.locator('a[href^="javascript"]')).toHaveCount(0);
  // A table, with HTML in a cell as text too.
  const table = turn.locator('table');
  await expect(table.locator('th')).toHaveText(['Tool', 'Kind', 'Try']);
  await expect(table.locator('tbody tr')).toHaveCount(2);
  await expect(table.locator('tbody tr').nth(1).locator('td').last()).toHaveText('<img src=x onerror="window.__xss=3">');
  await expect(table.locator('code').first()).toHaveText('get_weather');
  // A nested list keeps its shape.
  await expect(turn.locator('ol > li').first().locator('> ul > li')).toHaveText(['keep their shape', 'and their order']);
  // Markdown still works, and a safe link is a real link that opens elsewhere.
  await expect(turn.locator('strong').first()).toHaveText('bold');
  const safe = turn.getByRole('link', { name: 'safe link' });
  await expect(safe).toHaveAttribute('href', 'https://github.com/mlc-ai/web-llm');
  await expect(safe).toHaveAttribute('target', '_blank');
  await expect(safe).toHaveAttribute('rel', /noopener/);
  // A Markdown image is not fetched: at most a link to it.
  await expect(turn.getByRole('link', { name: 'tracker' })).toHaveAttribute('href', 'https://example.com/pixel.png');

  await turn.getByText('javascript link').click();
  await turn.getByText('a raw anchor', { exact: false }).click();
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();

  // What the user types is text too.
  await ask(page, '<img src=x onerror="window.__xss=2"> as html?');
  await expect(page.locator('.message.user').last()).toHaveText('<img src=x onerror="window.__xss=2"> as html?');
  await page.reload();
  await ready(page);
  await expect(page.locator('.turn')).toHaveCount(2);
  await expect(page.locator('.log img, .log script')).toHaveCount(0);
  await expect(page.locator('.turn').first().locator('table')).toHaveCount(1);
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
});

test('switching model keeps the open chat going with the new one', async ({ demo: page }) => {
  await ask(page, 'What is the weather in Boston?');
  const models = await openPicker(page);
  await models.getByRole('button', { name: 'Use Scripted fake model, Llama format' }).click();
  await expect(page.locator('#model')).toHaveText('fake-model-llama · scripted fake · llama tool calls');
  await expect(page.getByRole('button', { name: /Choose a model/ })).toHaveText('Scripted fake model, Llama format');
  await expect(page.locator('.message.user')).toHaveText(['What is the weather in Boston?']);
  // The Llama format's calls are parsed too: the card and the answer come out the same.
  const turn = await ask(page, 'What is the weather in Oslo?');
  await expect(turn.locator('.tool-card[data-tool="get_weather"]')).toHaveAttribute('data-state', 'done');
  await expect(turn).toContainText('The forecast for Oslo');
  // The choice is remembered.
  await page.reload();
  await ready(page);
  await expect(page.locator('#model')).toHaveText('fake-model-llama · scripted fake · llama tool calls');
  await expect(page.locator('.message.user')).toHaveCount(2);
});

test('a download shows bytes, speed and time left, can be cancelled, and the chats stay readable meanwhile', async ({ demo: page }) => {
  test.setTimeout(60_000);
  await ask(page, 'What is the weather in Boston?');
  await page.getByRole('button', { name: 'New chat' }).click();

  let models = await openPicker(page);
  await models.getByRole('button', { name: 'Use Scripted fake model, pretend download' }).click();
  const load = page.locator('#load');
  await expect(load.locator('.load-title')).toHaveText('Downloading Scripted fake model, pretend download');
  // Well under way, for the screenshot.
  await expect(load.locator('.load-numbers')).toHaveText(/^Fetching the weights: [1-9]\d % · [\d.]+ MB of 300 MB · [\d.]+ MB\/s · about [\d.]+ s left$/);
  await shot(page, 'download');
  // The stored chats are there to read while it downloads.
  await chatItem(page, 'What is the weather in Boston?').locator('.chat-open').click();
  await expect(page.locator('.tool-card[data-tool="get_weather"]')).toHaveAttribute('data-state', 'done');
  await expect(page.locator('.turn .text').last()).toContainText('The forecast for Boston');

  // Cancel: nothing loaded, and the page says what to do next.
  await load.getByRole('button', { name: 'Cancel the download' }).click();
  await expect(load).toBeHidden();
  await expect(page.locator('.toast')).toContainText('Cancelled the download of Scripted fake model, pretend download.');
  await expect(page.locator('#model')).toHaveText('no model');
  await expect(input(page)).toBeDisabled();
  await expect(input(page)).toHaveAttribute('placeholder', 'Choose a model to start chatting');
  await expect(page.getByRole('button', { name: 'Regenerate the answer' })).toBeDisabled();

  // Again, and this time a message sent meanwhile waits for the model.
  models = await openPicker(page);
  await models.getByRole('button', { name: 'Use Scripted fake model, pretend download' }).click();
  await expect(load).toBeVisible();
  const turn = await send(page, 'What is the weather in Lima?');
  await expect(turn.locator('.turn-waiting')).toHaveText('Waiting for the model to finish loading…');
  await expect(turn).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
  await expect(turn).toContainText('The forecast for Lima');
  await expect(load).toBeHidden();
});

test.describe('on the CPU (wllama)', () => {
  /** The tiny GGUF the e2e build writes beside the demo (scripts/tiny-gguf.mjs): the real engine, crafted weights, no download from the internet. */
  const TINY = '/models/tiny-qwen3.gguf';
  const TINY_FILE = fileURLToPath(new URL('../dist/demo/models/tiny-qwen3.gguf', import.meta.url));
  const ON_CPU = 'tiny-qwen3 · on the CPU (wllama, 1 thread) · qwen3 tool calls';
  // The crafted model writes until the window is full (its free choice never ends a reply): a small window keeps that short.
  const CONTEXT = 768;
  // The tiny model's load starts a worker with llama.cpp in WebAssembly; its replies take their time on one thread.
  test.describe.configure({ timeout: 90_000 });

  test('without WebGPU the notice suggests the CPU models, and the picker lists them first, with size and context', async ({ demo: page }) => {
    await expect(banner(page).locator('.banner-text')).toHaveText('No WebGPU in this browser: CPU models run here, GPU models cannot. A scripted fake model answers until you choose one.');
    await banner(page).getByRole('button', { name: 'Choose a CPU model' }).click();
    await expect(picker(page)).toBeVisible();
    await expect(picker(page).locator('.models-checking')).toHaveCount(0);
    await expect(picker(page).locator('.models-group').first()).toHaveText('Runs on the CPU (no GPU needed)');
    await expect(picker(page).locator('.models-note').first()).toHaveText(/^Suggested here: they need no GPU\./);
    const cpu = picker(page).getByRole('list', { name: 'Models that run on the CPU' });
    const rows = cpu.locator('.model-row[data-engine="wllama"]');
    // Small ones first; sizes from listModels: the curated list's, or (the first) its server's answer to a HEAD request.
    await expect(rows.locator('.model-label')).toHaveText(['Qwen2.5 0.5B (CPU)', 'Qwen3 0.6B (CPU)', 'Llama 3.2 1B (CPU)']);
    await expect(rows.locator('.model-facts')).toHaveText(['398 MB download · 4K-token context', '639 MB download · 4K-token context', '808 MB download · 4K-token context']);
    await expect(rows.first()).toHaveAttribute('data-model-id', 'Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF');
    await expect(rows.first()).toHaveAttribute('data-cached', 'false');
    await expect(cpu.getByRole('button', { name: 'Download Qwen3 0.6B (CPU)' })).toBeEnabled();
    await expect(cpu.getByLabel('Open a GGUF file')).toBeEnabled();
    // The GPU models come last, saying why.
    await expect(picker(page).getByText('This browser has no WebGPU, so these cannot run here: the CPU models can.')).toBeVisible();
    await shot(page, 'picker-cpu');
  });

  test('a downloaded CPU model is marked, and can be deleted', async ({ demo: page }) => {
    // wllama's cache as a finished download leaves it: the Origin Private File
    // System's cache/<sha1 of the URL>_<file>, beside its expected size.
    const url = 'https://huggingface.co/unsloth/Qwen3-0.6B-GGUF/resolve/main/Qwen3-0.6B-Q8_0.gguf';
    const files = () =>
      page.evaluate(async () => {
        const folder = await (await navigator.storage.getDirectory()).getDirectoryHandle('cache', { create: true });
        const names: string[] = [];
        for await (const name of (folder as unknown as { keys(): AsyncIterable<string> }).keys()) names.push(name);
        return names;
      });
    await page.evaluate(async (url) => {
      const hash = [...new Uint8Array(await crypto.subtle.digest('SHA-1', new TextEncoder().encode(url)))].map((b) => b.toString(16).padStart(2, '0')).join('');
      const name = `${hash}_${url.split('/').pop()}`;
      const folder = await (await navigator.storage.getDirectory()).getDirectoryHandle('cache', { create: true });
      const write = async (file: string, text: string) => {
        const writable = await (await folder.getFileHandle(file, { create: true })).createWritable();
        await writable.write(text);
        await writable.close();
      };
      await write(name, 'weights');
      await write(`__metadata__${name}`, JSON.stringify({ originalURL: url, originalSize: 7, etag: '' }));
    }, url);
    expect(await files()).toHaveLength(2);

    await openPicker(page);
    await expectDownloaded(page, 'Qwen3 0.6B (CPU)');
    await shot(page, 'picker-cpu-downloaded');
    // wllama's cache this time.
    await deleteDownloaded(page, 'Qwen3 0.6B (CPU)', '639 MB');
    expect(await files()).toEqual([]);
  });

  test('a GGUF by URL (?gguf=) is listed as yours, downloads, runs on the CPU, answers, and loads by itself on the next visit', async ({ page }) => {
    const errors = watchErrors(page);
    await page.addInitScript(() => {
      // The load panel as it shows (its title, the phase its numbers name) and whether the banner shows
      // with it, noted at every change (a 22 MB file from this machine downloads quickly).
      const seen: Array<{ title: string; phase: string; banner: boolean }> = [];
      Object.assign(window, { loadShown: seen });
      new MutationObserver(() => {
        const load = document.getElementById('load');
        if (!load || load.hidden) return;
        const now = {
          title: load.querySelector('.load-title')?.textContent ?? '',
          phase: (load.querySelector('.load-numbers')?.textContent ?? '').split(':')[0]!,
          banner: !document.getElementById('banner')!.hidden,
        };
        const last = seen.at(-1);
        if (!last || last.title !== now.title || last.phase !== now.phase || last.banner !== now.banner) seen.push(now);
      }).observe(document, { attributes: true, childList: true, subtree: true, characterData: true });
    });
    await page.goto(`${DEMO}?gguf=${TINY}&ctx=${CONTEXT}`);
    await ready(page);
    // Nothing downloads by itself: the scripted model answers until the person picks, and the notice says so.
    await expect(page.locator('#model')).toHaveText('fake-model · scripted fake · hermes tool calls');
    await expect(banner(page)).toContainText('A scripted fake model answers until you choose one.');

    await openPicker(page);
    const row = modelRow(page, 'Your GGUF: tiny-qwen3.gguf');
    await expect(row).toHaveAttribute('data-engine', 'wllama');
    // Its size is asked of the server (one HEAD request); its window is the one asked for.
    await expect(row.locator('.model-facts')).toHaveText('22 MB download · 768-token context');
    await expect(row.locator('.model-note')).toHaveText(`From ${DEMO}models/tiny-qwen3.gguf`);
    await row.getByRole('button', { name: 'Download Your GGUF: tiny-qwen3.gguf' }).click();

    await expect(page.locator('#model')).toHaveText(ON_CPU, { timeout: 30_000 });
    // Each phase under its own title: "Downloading" while the file comes, "Loading" once it goes into memory;
    // and the notice that the fake model answers went as soon as the CPU model was picked.
    const shown = await page.evaluate(() => (window as unknown as { loadShown: Array<{ title: string; phase: string; banner: boolean }> }).loadShown);
    expect(shown.map((s) => s.title)).toContain('Downloading Your GGUF: tiny-qwen3.gguf');
    expect(new Set(shown.filter((s) => s.title.startsWith('Downloading')).map((s) => s.phase))).toEqual(new Set(['Starting…', 'Fetching the weights']));
    expect(shown.filter((s) => s.phase === 'Loading the model into memory').map((s) => s.title)).toContain('Loading Your GGUF: tiny-qwen3.gguf');
    expect(shown.filter((s) => s.phase === 'Loading the model into memory' && s.title !== 'Loading Your GGUF: tiny-qwen3.gguf')).toEqual([]);
    expect(shown.filter((s) => s.banner), 'the fake model’s notice while the CPU model loads').toEqual([]);
    await expect(page.getByRole('button', { name: /Choose a model/ })).toHaveText('Your GGUF: tiny-qwen3.gguf');
    // A real model runs: the no-WebGPU notice no longer applies.
    await expect(banner(page)).toBeHidden();
    await expect(page.locator('.empty')).toContainText('A small model on your CPU');
    await shot(page, 'cpu-model-ready');

    // A reply from llama.cpp: the crafted model writes only whitespace, so the turn is checked, not its words.
    const turn = await send(page, 'Hello');
    await expect(turn).toHaveAttribute('data-state', 'streaming');
    await expect(page.locator('#send')).toHaveText('Stop');
    await expect(turn).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
    await expect(page.locator('#send')).toHaveText('Send');
    // Its spaces would fill the window: tabagent stops them after 64 tokens, and the turn says why, with what it cost.
    await expect(turn.locator('.turn-stats')).toContainText('Cut off The model wrote only blank space, so it was stopped.');
    await expect(turn.locator('.turn-stats')).toHaveText(/1 model call · (6[4-9]|7[0-2]) tokens · [\d.]+ (?:ms|s) · [\d.]+ tokens\/s$/);
    await expect(turn.getByRole('button', { name: 'Regenerate the answer' })).toBeEnabled();
    await shot(page, 'cpu-model-answered');

    // The next visit, without the parameter: it is downloaded, so it loads without asking, and the picker shows it in use.
    await page.goto(DEMO);
    await ready(page);
    await expect(page.locator('#model')).toHaveText(ON_CPU, { timeout: 30_000 });
    await openPicker(page);
    await expect(row).toHaveAttribute('data-cached', 'true');
    await expect(row.getByRole('button', { name: 'Use Your GGUF: tiny-qwen3.gguf' })).toHaveText('In use');
    expect(errors).toEqual([]);
  });

  test('a .gguf from the disk loads without a download', async ({ demo: page }) => {
    await openPicker(page);
    await picker(page).getByLabel('Open a GGUF file').setInputFiles(TINY_FILE);
    await expect(picker(page)).toBeHidden();
    await expect(page.locator('#model')).toHaveText(ON_CPU, { timeout: 30_000 });
    await openPicker(page);
    const row = modelRow(page, 'Your GGUF: tiny-qwen3.gguf');
    // A file's own window is read only when it loads: what is known is the most tabagent gives it.
    await expect(row.locator('.model-facts')).toHaveText('22 MB file · up to 4K-token context');
    await expect(row.locator('.model-note')).toHaveText('From your disk: nothing downloads');
    await expect(row.getByRole('button', { name: 'Use Your GGUF: tiny-qwen3.gguf' })).toHaveText('In use');
    // Never in the cache, so nothing to delete.
    await expect(row.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
  });
});

test.describe('with a GPU the page can see', () => {
  test.use({ allowedConsoleErrors: /Failed to load resource/ });

  test('nothing downloads until a pick; the picker shows size, GPU memory and context; a failed load says why once, with Retry', async ({ page, context }) => {
    test.setTimeout(90_000);
    await pretendGpu(page);
    const asked = await offline(context);
    const errors = watchErrors(page, /Failed to load resource/);
    await page.addInitScript(() => {
      // Each attempt's panel, noted from the very start (it may come and go quickly).
      const seen: string[] = [];
      Object.assign(window, { loadShown: seen });
      new MutationObserver(() => {
        const load = document.getElementById('load');
        const title = load?.querySelector('.load-title')?.textContent ?? '';
        if (load && !load.hidden && seen.at(-1) !== title) seen.push(title);
        if (load?.hidden && seen.at(-1) !== '') seen.push('');
      }).observe(document, { attributes: true, childList: true, subtree: true, characterData: true });
    });
    await page.goto(DEMO);
    await ready(page);

    // A first visit: no model, nothing fetched, and the way forward in plain sight.
    await expect(page.getByRole('heading', { name: 'Choose a model to start' })).toBeVisible();
    await expect(input(page)).toBeDisabled();
    await expect(page.locator('#model')).toHaveText('no model: nothing downloads until you choose one');
    await expect(banner(page)).toBeHidden();
    expect(asked).toEqual([]);
    await shot(page, 'first-visit');

    // The picker asks only for the models' manifests, for their sizes.
    await page.getByRole('button', { name: 'Choose a model' }).last().click();
    const row = modelRow(page, 'Qwen2.5 1.5B');
    await expect(row.locator('.model-facts')).toHaveText('880 MB download · 1.6 GB GPU memory · 4K-token context');
    await expect(modelRow(page, 'Hermes 3 (Llama 3.2 3B)').locator('.model-facts')).toHaveText(/^1\.8 GB download · /);
    await expect(row).toHaveAttribute('data-model-id', 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC');
    await expect(row.getByText('A good first choice')).toBeVisible();
    // With a GPU its models come first; the CPU ones are still offered (for a GPU too weak for them).
    await expect(picker(page).locator('.models-group')).toHaveText(['On your GPU', 'Runs on the CPU (no GPU needed)', 'Scripted (nothing to download)']);
    await expect(picker(page).locator('.model-row[data-engine="wllama"]')).toHaveCount(3);
    await expect(picker(page).locator('.model-row[data-cached="true"]')).toHaveCount(0);
    expect(asked.length).toBeGreaterThan(0);
    // The GPU models' manifests; a CPU model's size the curated list does not know, from a HEAD request.
    expect(asked.every((url) => url.endsWith('/tensor-cache.json') || /^HEAD .+\.gguf$/.test(url))).toBe(true);
    await shot(page, 'picker');

    // The pick fails (the worker has no GPU): said once, with what to do.
    await picker(page).getByRole('button', { name: 'Download Qwen2.5 1.5B' }).click();
    await expect(picker(page)).toBeHidden();
    const notice = banner(page).locator('.banner-text');
    await expect(notice).toHaveText(/^Could not load Qwen2\.5 1\.5B: no usable WebGPU \(.+\)\. The scripted fake model answers meanwhile\.$/, { timeout: 20_000 });
    expect((await notice.textContent())!.match(/Could not load/g)).toHaveLength(1);
    await expect(page.locator('#model')).toHaveText('fake-model · scripted fake · hermes tool calls');
    await expect(page.locator('#load')).toBeHidden();
    // Meanwhile the page works.
    const turn = await ask(page, 'What is the weather in Boston?');
    await expect(turn).toContainText('The forecast for Boston');
    await shot(page, 'load-failed');

    // Retry tries again (and fails again, the same way).
    await banner(page).getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { loadShown: string[] }).loadShown.filter(Boolean).length)).toBe(2);
    // Each attempt starts a worker that loads WebLLM (6 MB of script) before it finds no GPU: give it time on a busy machine.
    await expect(page.locator('#model')).toHaveText('fake-model · scripted fake · hermes tool calls', { timeout: 20_000 });
    await expect(notice).toHaveText(/^Could not load Qwen2\.5 1\.5B: /);
    // The GPU check fails before any download starts.
    expect(asked.every((url) => url.endsWith('/tensor-cache.json') || /^HEAD .+\.gguf$/.test(url))).toBe(true);
    expect(errors).toEqual([]);
  });

  test('a downloaded model is marked, loads by itself on arrival, and can be deleted', async ({ page, context }) => {
    test.setTimeout(90_000);
    await pretendGpu(page);
    const asked = await offline(context);
    const errors = watchErrors(page, /Failed to load resource/);
    await page.goto(DEMO);
    await ready(page);
    // WebLLM's cache as a finished download leaves it: the manifest and every shard it lists.
    await page.evaluate(async (body) => {
      const base = 'https://huggingface.co/mlc-ai/Qwen2.5-1.5B-Instruct-q4f16_1-MLC/resolve/main/';
      const cache = await caches.open('webllm/model');
      await cache.put(`${base}tensor-cache.json`, new Response(body));
      await cache.put(`${base}params_shard_0.bin`, new Response('weights'));
    }, JSON.stringify(manifest(880_000_000)));
    await page.reload();
    await ready(page);
    // Downloaded, so it loads without asking (here it fails: the worker has no GPU).
    await expect(banner(page).locator('.banner-text')).toHaveText(/^Could not load Qwen2\.5 1\.5B: /, { timeout: 20_000 });

    await openPicker(page);
    const row = await expectDownloaded(page, 'Qwen2.5 1.5B');
    // Its size comes from its own manifest, in the cache: not fetched.
    await expect(row.locator('.model-facts')).toHaveText(/^880 MB download · /);
    expect(asked.filter((url) => url.includes('Qwen2.5-1.5B'))).toEqual([]);
    await shot(page, 'picker-downloaded');
    // WebLLM's cache this time.
    await deleteDownloaded(page, 'Qwen2.5 1.5B', '880 MB');
    // The weights are gone (WebLLM keeps the small manifest, which is how the size stays known).
    expect(await page.evaluate(async () => (await (await caches.open('webllm/model')).keys()).map((r) => r.url.split('/').at(-1)))).not.toContain('params_shard_0.bin');
    expect(errors).toEqual([]);
  });
});

test("on Chromium's software WebGPU, WebLLM itself: a download cut off by the network says so, and Retry tries again", async ({ playwright }, testInfo) => {
  test.slow();
  // The config's Chromium and arguments, with WebGPU on (as its webgpu project has it): a browser of this test's own.
  const { launchOptions } = testInfo.project.use;
  const browser = await playwright.chromium.launch({ ...launchOptions, args: [...(launchOptions?.args ?? []), '--enable-unsafe-webgpu'] });
  try {
    const context = await browser.newContext();
    const asked = await offline(context);
    const page = await context.newPage();
    const errors = watchErrors(page, /Failed to load resource|Failed to fetch|NetworkError/);
    await page.goto(DEMO);
    await ready(page);
    await expect(page.getByRole('heading', { name: 'Choose a model to start' })).toBeVisible();
    await openPicker(page);
    // SwiftShader has no shader-f16: the picker offers the f32 build.
    await expect(modelRow(page, 'Qwen2.5 0.5B')).toHaveAttribute('data-model-id', 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC');
    // exact: the CPU build's row, "Qwen2.5 0.5B (CPU)", is listed too.
    await picker(page).getByRole('button', { name: 'Download Qwen2.5 0.5B', exact: true }).click();
    const notice = banner(page).locator('.banner-text');
    const failed = 'Could not load Qwen2.5 0.5B: the network request failed. The scripted fake model answers meanwhile.';
    await expect(notice).toHaveText(failed, { timeout: 30_000 });
    const tries = () => asked.filter((url) => url.endsWith('/mlc-chat-config.json')).length;
    expect(tries()).toBe(1);
    await banner(page).getByRole('button', { name: 'Retry' }).click();
    await expect.poll(tries, { timeout: 30_000 }).toBe(2);
    await expect(notice).toHaveText(failed, { timeout: 30_000 });
    await expect(page.locator('#model')).toHaveText('fake-model · scripted fake · hermes tool calls');
    expect(errors).toEqual([]);
  } finally {
    await browser.close();
  }
});

test.describe('on a phone-sized screen', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

  test('the chat fits, the notice stays small, and the chat list is a drawer', async ({ demo: page }) => {
    const sidebar = page.getByRole('complementary', { name: 'Chats' });
    await expect(sidebar).toBeHidden();
    await expect(page.getByRole('button', { name: 'Show chats' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send' })).toBeInViewport();
    // The no-WebGPU notice takes a few lines, not a third of the screen.
    await expect(banner(page)).toBeVisible();
    expect((await banner(page).boundingBox())!.height).toBeLessThan(844 / 6);
    await shot(page, 'phone-first-visit');

    const turn = await ask(page, 'What is the weather in Boston and Oslo?');
    await expect(turn.locator('.tool-card')).toHaveCount(2);
    for (const card of await turn.locator('.tool-card').all()) {
      const box = (await card.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    // Nothing sticks out sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expect(input(page)).toBeInViewport();
    await shot(page, 'phone-chat');

    // The picker fits too.
    const models = await openPicker(page);
    const box = (await models.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await shot(page, 'phone-picker');
    await models.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: 'Show chats' }).click();
    await expect(sidebar).toBeVisible();
    // Slid all the way in (it animates).
    await expect.poll(async () => (await sidebar.boundingBox())?.x).toBe(0);
    await expect(chatItem(page, 'What is the weather in Boston and Oslo?')).toBeVisible();
    await shot(page, 'phone-drawer');
    await page.getByRole('button', { name: 'New chat' }).click();
    await expect(sidebar).toBeHidden();
    await expect(page.locator('.empty')).toBeVisible();

    await send(page, 'Delete notes.txt');
    const dialog = page.getByRole('dialog', { name: 'Allow delete_file?' });
    await expect(dialog).toBeInViewport();
    await shot(page, 'phone-approval');
    await dialog.getByRole('button', { name: 'Allow' }).click();
    await expect(lastTurn(page)).toHaveAttribute('data-state', 'done');
  });
});

test('an MCP server that asks for input mid-call (?mcp=…): the page shows its form, as text, and the answer reaches the tool', async ({ page }) => {
  const errors = watchErrors(page);
  await fetch('http://127.0.0.1:4191/control?do=reset', { method: 'POST' });
  await page.goto(`${DEMO}?mcp=${encodeURIComponent('http://127.0.0.1:4191/ask/mcp')}`);
  await ready(page);
  await expect(page.locator('.toast').filter({ hasText: 'Connected to sign-up' })).toContainText('sign_up');
  await input(page).fill('Sign me up');
  await input(page).press('Enter');
  const form = page.getByRole('dialog', { name: 'The server asks you' });
  await expect(form).toContainText('Which name and plan should the account have?', { timeout: 15_000 });
  await expect(form.getByLabel('Plan')).toHaveValue('basic');
  await form.getByLabel('Your name (required)').fill('Ada');
  await form.getByLabel('Plan').selectOption('pro');
  await shot(page, 'elicitation');
  await form.getByRole('button', { name: 'Send' }).click();
  await expect(lastTurn(page)).toContainText('Signed up Ada for the pro plan.', { timeout: 15_000 });
  expect(errors, 'errors in the page').toEqual([]);
});
