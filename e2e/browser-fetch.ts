// Answer a URL for a context's pages and for the shared workers they start.
// Playwright's routes see pages and their dedicated workers only; a model in
// a SharedWorker (createAgent({ shared: true })) fetches where they cannot
// reach, so its requests are answered at the browser's own target (CDP's
// Fetch domain there pauses the requests of targets made after it is on:
// the shared worker, started later, not the page already open).
import type { BrowserContext } from '@playwright/test';

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body: Buffer;
}

type Asker = (request: { method: string; headers: Record<string, string> }) => Answer;

/** Answer requests for `url` (exactly) with what `answer` gives; returns a function that stops. */
export async function answerEverywhere(context: BrowserContext, url: string, answer: Asker): Promise<() => Promise<void>> {
  await context.route(url, (route) => {
    const { status, headers, body } = answer({ method: route.request().method(), headers: route.request().headers() });
    return route.fulfill({ status, headers, body });
  });
  const cdp = await context.browser()!.newBrowserCDPSession();
  cdp.on('Fetch.requestPaused', (event) => {
    if (event.request.url !== url) {
      void cdp.send('Fetch.continueRequest', { requestId: event.requestId }).catch(() => undefined);
      return;
    }
    const { status = 200, headers = {}, body } = answer({ method: event.request.method, headers: event.request.headers as Record<string, string> });
    const responseHeaders = Object.entries({ 'content-length': String(body.length), ...headers }).map(([name, value]) => ({ name, value }));
    // A HEAD is answered with the headers alone, as a server would.
    const sent = event.request.method === 'HEAD' ? '' : body.toString('base64');
    void cdp.send('Fetch.fulfillRequest', { requestId: event.requestId, responseCode: status, responseHeaders, body: sent }).catch(() => undefined);
  });
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern: url }] });
  return async () => {
    await context.unroute(url).catch(() => undefined);
    await cdp.send('Fetch.disable').catch(() => undefined);
    await cdp.detach().catch(() => undefined);
  };
}
