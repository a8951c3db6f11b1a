// A server that answers in the OpenAI chat-completions wire format
// (POST /v1/chat/completions, SSE when `stream` is set), for a server model
// through @ai-sdk/openai-compatible in tabagent's tests. No model behind it:
// it answers by rule, from the request as sent, so a test can tell what the
// server was given (see RULES). CORS for a page on another origin.
//   node e2e/support/chat-server.mjs --port 4195
// Endpoints:
//   /v1/chat/completions  the API; answers 401 unless `Authorization: Bearer <key>` when started with `key`
//   /state                GET: every request body, in order ({ requests })
//   /control?do=reset     forget them
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { close, listen, portArg, webListener, withTestRoutes } from './http-bridge.mjs';

/**
 * How the server answers, first rule that fits:
 * - a JSON response format: `{"city":"Paris"}` (the schema asks for a city);
 * - the last message a tool result: "The tool said <result>.";
 * - "a + b" in the last user message and a tool `add` offered: a call to add({ a, b });
 * - "delete <path>" and a tool `remove` offered: a call to remove({ path });
 * - "search <q>" and a tool `search` offered: a call to search({ q });
 * - "slowly": 200 words, 50 ms apart (for aborts);
 * - else "You said: <text>." — with the number of messages it was sent.
 */
function answer(body) {
  const messages = body.messages ?? [];
  const last = messages.at(-1) ?? {};
  const offered = new Set((body.tools ?? []).map((t) => t.function?.name));
  const userText = typeof last.content === 'string' ? last.content : '';
  if (body.response_format?.type === 'json_schema' || body.response_format?.type === 'json_object') return { text: '{"city":"Paris"}' };
  if (last.role === 'tool') return { text: `The tool said ${last.content}.` };
  const sum = /(\d+)\s*\+\s*(\d+)/.exec(userText);
  if (sum && offered.has('add')) return { call: { name: 'add', arguments: { a: Number(sum[1]), b: Number(sum[2]) } } };
  const removal = /delete (\S+)/i.exec(userText);
  if (removal && offered.has('remove')) return { call: { name: 'remove', arguments: { path: removal[1] } } };
  const search = /search (.+)/i.exec(userText);
  if (search && offered.has('search')) return { call: { name: 'search', arguments: { q: search[1] } } };
  if (/slowly/.test(userText)) return { text: Array.from({ length: 200 }, (_, i) => `word${i}`).join(' '), delayMs: 50 };
  return { text: `You said: ${userText} (${messages.length} messages).` };
}

export async function startChatServer({ port = 0, host = '127.0.0.1', key } = {}) {
  const state = { requests: [] };
  let calls = 0;
  const control = (what) => {
    if (what === 'reset') state.requests.length = 0;
  };
  const http = createServer(
    webListener(
      withTestRoutes({ state: () => state, control }, async (request) => {
        if (new URL(request.url).pathname !== '/v1/chat/completions' || request.method !== 'POST') return new Response(null, { status: 404 });
        if (key !== undefined && request.headers.get('authorization') !== `Bearer ${key}`) {
          return Response.json({ error: { message: 'Incorrect API key provided.', type: 'invalid_request_error' } }, { status: 401 });
        }
        const body = await request.json();
        state.requests.push(body);
        const reply = answer(body);
        const id = `chatcmpl-${++calls}`;
        const chunk = (choice, extra = {}) => `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model: body.model, choices: choice ? [{ index: 0, ...choice }] : [], ...extra })}\n\n`;
        const usage = { prompt_tokens: JSON.stringify(body.messages).length >> 2, completion_tokens: 8, total_tokens: 0 };
        if (!body.stream) return Response.json({ id, object: 'chat.completion', created: 0, model: body.model, choices: [{ index: 0, message: { role: 'assistant', content: reply.text ?? null }, finish_reason: 'stop' }], usage });
        const encoder = new TextEncoder();
        const stream = new ReadableStream({
          async start(controller) {
            const send = (text) => controller.enqueue(encoder.encode(text));
            if (reply.call) {
              const call = { index: 0, id: `call_${calls}`, type: 'function', function: { name: reply.call.name, arguments: JSON.stringify(reply.call.arguments) } };
              send(chunk({ delta: { role: 'assistant', content: null, tool_calls: [call] }, finish_reason: null }));
              send(chunk({ delta: {}, finish_reason: 'tool_calls' }));
            } else {
              const words = reply.text.split(/(?<= )/);
              for (const [i, word] of words.entries()) {
                if (reply.delayMs) await new Promise((done) => setTimeout(done, reply.delayMs));
                if (request.signal.aborted) return controller.close();
                send(chunk({ delta: i === 0 ? { role: 'assistant', content: word } : { content: word }, finish_reason: null }));
              }
              send(chunk({ delta: {}, finish_reason: 'stop' }));
            }
            send(chunk(undefined, { usage }));
            send('data: [DONE]\n\n');
            controller.close();
          },
        });
        return new Response(stream, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } });
      }),
    ),
  );
  const origin = await listen(http, port, host);
  return { origin, url: `${origin}/v1`, state, control, close: () => close(http) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url } = await startChatServer({ port: portArg('--port', 4195) });
  console.log(`Chat-completions test server on ${url}`);
}
