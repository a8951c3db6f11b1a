// The demo app asks for a WebLLM model once the person picks one
// (createAgent, then agent.load('Qwen2.5-1.5B-Instruct-q4f16_1-MLC')); this
// test, and no change to the app, gives it a scripted fake model instead.
import { expect, test } from '@playwright/test';
import { toolCallText, useFakeModel } from 'tabagent/testing';

test.use({ baseURL: 'http://127.0.0.1:4174' }); // the demo app, unchanged

test('the app answers from the scripted model', async ({ page }) => {
  // The demo offers WebLLM models only where it sees WebGPU: show it a GPU.
  await page.addInitScript(() => {
    const adapter = { features: new Set(['shader-f16']) };
    Object.defineProperty(Navigator.prototype, 'gpu', { get: () => ({ requestAdapter: async () => adapter }) });
  });
  // No network in a test: the picker's size look-ups fail quietly.
  await page.route(/^https:\/\//, (route) => route.abort());
  // Before page.goto: from now on, every WebLLM model the page asks for is this script.
  const fake = await useFakeModel(page, [toolCallText('get_weather', { location: 'Boston' }), 'Sunny in Boston today.']);

  await page.goto('/');
  await page.getByRole('button', { name: 'Choose a model' }).last().click();
  await page.getByRole('button', { name: 'Download Qwen2.5 1.5B' }).click(); // the app's own choice
  await expect(page.locator('#model')).toContainText('Qwen2.5-1.5B-Instruct');
  await page.getByRole('textbox', { name: 'Message' }).fill('What is the weather in Boston?');
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(page.locator('.turn').last()).toContainText('Sunny in Boston today.');

  const requests = await fake.requests(); // what the model read, as it read it
  expect(requests[0]?.prompt).toContain('What is the weather in Boston?');
  expect(requests[0]?.prompt).toContain('"name": "get_weather"'); // the tools, in the model's own format
  expect(requests[1]?.last).toContain('"forecast"'); // the tool ran, and its result went back
  await fake.assertComplete(); // every scripted output was used
});
