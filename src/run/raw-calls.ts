// A raw tool's calls go to the page as the model wrote them, and the grammar
// holds them only to what the engines read (docs/tools.md: lengths, bounds,
// most formats, a `$ref` beside keys are left out). So each is checked
// against the tool's JSON Schema when the turn is read, as a managed tool's
// arguments are before its handler: one that does not fit is a call the
// model must write again (errorCode 'invalid-arguments'), told what is wrong,
// never an answer the page must make sense of.
import { InvalidToolArgumentsError } from '../errors/index.js';
import type { ToolSet } from '../calls/tool-set.js';
import type { AssistantMessage, ToolCall } from '../shared/chat.js';
import { lazyImport } from '../shared/lazy-import.js';
import type { SchemaCheck } from '../tools/json-schema-input.js';
import type { RawTool } from '../tools/types.js';

/** The JSON Schema validator, loaded with the first raw call: a page without raw tools never loads it. */
const loadCheck = lazyImport(() => import('../tools/json-schema-input.js'));
const checks = new WeakMap<RawTool, SchemaCheck['check']>();

/** The calls of `turn` that name a raw tool and are not refused already. */
export function uncheckedRawCalls(turn: AssistantMessage, tools: ToolSet): ToolCall[] {
  return turn.toolCalls.filter((call) => !call.error && tools.get(call.name)?.kind === 'raw');
}

/** `turn` with each of its `unchecked` calls (uncheckedRawCalls) that its tool's schema refuses marked as one to write again. */
export async function withRawCallsChecked(turn: AssistantMessage, tools: ToolSet, calls: readonly ToolCall[]): Promise<AssistantMessage> {
  const unchecked = new Set(calls);
  const { jsonSchemaInput } = await loadCheck();
  const toolCalls = turn.toolCalls.map((call): ToolCall => {
    if (!unchecked.has(call)) return call;
    const tool = tools.get(call.name) as RawTool;
    let check = checks.get(tool);
    if (!check) checks.set(tool, (check = jsonSchemaInput(tool.parameters).check));
    const result = check(call.arguments);
    if (!('issues' in result)) return call;
    const issues = result.issues.map(({ path, message }) => ({ path: path.join('.'), message }));
    return { ...call, error: new InvalidToolArgumentsError({ toolName: call.name, callId: call.id, issues }).message, errorCode: 'invalid-arguments' };
  });
  return { ...turn, toolCalls };
}
