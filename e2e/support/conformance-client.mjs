// The client the MCP conformance suite runs for each of its client scenarios
// (it appends the scenario server's URL, and names the scenario in
// MCP_CONFORMANCE_SCENARIO): tabagent's MCP client as a browser app uses it,
// in the e2e harness page (the production build) of the headless Chromium the
// spec started (TABAGENT_BROWSER), whose proxy adds the CORS headers the
// scenario servers do not send. The page does what an app does: mcpTools,
// then a chat (fake model) that calls the scenario's tool; with OAuth it
// follows the trip to the authorization server and back (finishMcpAuth) as
// docs/mcp.md's connect() does. Exits 1 when the app would have shown an error.
import { chromium } from 'playwright';

const serverUrl = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
const app = process.env.TABAGENT_APP ?? 'http://127.0.0.1:4173/';

/** The tool each scenario's server offers to be called, and its arguments. */
const TOOLS = {
  tools_call: ['add_numbers', { a: 2, b: 3 }],
  'elicitation-sep1034-client-defaults': ['test_client_elicitation_defaults', {}],
  'sse-retry': ['test_reconnection', {}],
};
const [toolName, toolArgs] = TOOLS[scenario] ?? (scenario.startsWith('auth/') ? ['test-tool', {}] : []);
// A registered client where the scenario gives one; else the app's Client ID Metadata Document (the URL the suite expects), or registration.
const oauth = scenario.startsWith('auth/') ? (context.client_id ? { clientId: context.client_id, clientSecret: context.client_secret } : { clientMetadataUrl: 'https://conformance-test.local/client-metadata.json' }) : undefined;
const elicit = scenario.startsWith('elicitation');

const browser = await chromium.connect(process.env.TABAGENT_BROWSER);
let exit = 1;
try {
  const page = await browser.newPage();
  page.on('console', (m) => console.error(`page: ${m.text()}`));
  await page.goto(app);
  // Sign-in trips: each mcpTools that sends the page away is followed to the
  // authorization server and back, as often as the library asks (it must stop).
  for (let trip = 0; trip < 8; trip++) {
    await page.locator('#status').filter({ hasText: 'ready' }).waitFor();
    const outcome = await page.evaluate(
      async ({ serverUrl, toolName, toolArgs, oauth, elicit }) => {
        const { createAgent, fakeModel, finishMcpAuth, isMcpConnectionError, mcpTools, toolCallText } = window.tabagent;
        const here = new URL(location.href);
        if (here.searchParams.has('state')) {
          await finishMcpAuth(here);
          history.replaceState(null, '', here.pathname);
        }
        let redirect;
        const options = {
          needsApproval: false,
          ...(oauth ? { oauth: { redirectUrl: `${location.origin}/`, clientMetadata: { client_name: 'tabagent conformance' }, ...oauth, onRedirect: (url) => void (redirect = url.href) } } : {}),
          // Accepted as the person left the form: nothing filled in, the defaults stand.
          ...(elicit ? { elicit: async () => ({ action: 'accept', content: {} }) } : {}),
        };
        let server;
        try {
          server = await mcpTools(serverUrl, options);
        } catch (error) {
          if (redirect && isMcpConnectionError(error) && error.unauthorized) return { redirect };
          throw error;
        }
        try {
          if (!toolName) return { done: server.tools.map((t) => t.name) };
          const agent = await createAgent({ model: fakeModel([toolCallText(toolName, toolArgs), 'Done.']), storage: false });
          const chat = await agent.newChat({ tools: [server] });
          const ends = [];
          chat.on('tool-end', (e) => ends.push(`${e.toolName} ${e.status} ${e.content}`));
          await chat.send('go');
          if (redirect) return { redirect };
          return { done: ends };
        } finally {
          await server.close();
        }
      },
      { serverUrl, toolName, toolArgs, oauth, elicit },
    );
    if ('done' in outcome) {
      console.log(JSON.stringify(outcome.done));
      const failed = Array.isArray(outcome.done) && outcome.done.some((e) => / (error|timeout|invalid) /.test(e));
      exit = failed ? 1 : 0;
      break;
    }
    console.log(`sign-in ${trip + 1}: ${new URL(outcome.redirect).origin}`);
    await page.goto(outcome.redirect);
  }
} catch (error) {
  console.error(String(error?.stack ?? error));
} finally {
  await browser.close();
}
process.exit(exit);
