// llama.cpp's common_chat_parse cases (tests/test-chat.cpp), restated as data.
// `is_partial = true` (a reply still streaming, or cut) is stated as finish
// 'length'. llama.cpp's message constants: message_assist_call is
// special_function({arg1: 1}); message_assist is "Hello, world!\nWhat's up?".
import type { PeerCall, PeerCase, PeerSource } from './types.js';

const source = (test: string): PeerSource => ({
  repo: 'ggml-org/llama.cpp',
  path: 'tests/test-chat.cpp',
  commit: 'e7e21164bdf5434e3453777fd27e68cdc0ebfe94',
  test: `test_template_output_parsers: ${test}`,
});

/**
 * A later test-chat.cpp (its peg_tester cases: Ministral 3, Nemotron 3 Nano's
 * Qwen-style XML, Gemma 4), as the search index stores it; the index gives
 * that version no commit, so its file id stands in.
 */
const later = (test: string): PeerSource => ({
  repo: 'ggml-org/llama.cpp',
  path: 'tests/test-chat.cpp',
  commit: 'not given by the index (file id 52254480187, a version after e7e21164)',
  test: `peg_tester: ${test}`,
});

const SPECIAL = { name: 'special_function', arguments: { arg1: 1 } };
const HELLO = "Hello, world!\nWhat's up?";
const SPECIAL_JSON = '{"name": "special_function", "arguments": {"arg1": 1}}';

/** Hermes 2 Pro: llama.cpp reads the call in each of these wrappings as special_function({arg1: 1}), with no content. */
const hermesWrappings: [string, string][] = [
  ['tool-call', `<tool_call>\n${SPECIAL_JSON}\n</tool_call>`],
  ['function-eq', '<function=special_function>{"arg1": 1}</function>'],
  ['function-name-attr', '<function name="special_function">\n{"arg1": 1}\n</function>'],
  ['tool-tag', `<tool>\n  ${SPECIAL_JSON}\n</tool>`],
  ['tools-tag', `<tools>\n  ${SPECIAL_JSON}\n</tools>`],
  ['response-tag', `<response>\n  ${SPECIAL_JSON}\n</response>`],
  ['xml-fence-response', `\`\`\`xml\n<response>\n    ${SPECIAL_JSON}\n</response>\n\`\`\``],
  ['xml-fence', `\`\`\`xml\n  ${SPECIAL_JSON}\n\`\`\``],
  ['fence-indented', `\`\`\`\n  ${SPECIAL_JSON}\n\`\`\``],
  ['fence', `\`\`\`\n${SPECIAL_JSON}\n\`\`\``],
  ['json-fence', `\`\`\`json\n  ${SPECIAL_JSON}\n\`\`\``],
  ['json-fence-function-call', `\`\`\`json\n\n                    <function_call> ${SPECIAL_JSON} \n                    </function_call> \n\`\`\` `],
  ['json-tag', `<json>\n  ${SPECIAL_JSON}\n</json>`],
  ['xml-tag', '<xml>\n  {\n    "name": "special_function", "arguments": {"arg1": 1}\n  }\n</xml>'],
  ['json-tag-upper', `<JSON>\n  ${SPECIAL_JSON}\n</JSON>`],
  ['bare-json', SPECIAL_JSON],
  ['bare-json-multiline', '{\n  "name": "special_function", "arguments": {"arg1": 1}}'],
];

export const llamaCppCases: PeerCase[] = [
  // ── Hermes 2 Pro / Qwen 2.5 (COMMON_CHAT_FORMAT_HERMES_2_PRO) ──
  ...hermesWrappings.map(
    ([name, output]): PeerCase => ({
      id: `llama.cpp/hermes/${name}`,
      family: 'hermes',
      source: source(`Hermes 2 Pro, ${JSON.stringify(output.slice(0, 40))}…`),
      output,
      finish: 'stop',
      expected: { calls: [SPECIAL], content: '' },
    }),
  ),
  {
    id: 'llama.cpp/hermes/partial-fenced-function-call',
    family: 'hermes',
    source: source('Hermes 2 Pro, partial "```json\\n<function_call> { \\"name\\" : \\"python\\""'),
    output: '```json\n<function_call> { "name" : "python"',
    finish: 'length',
    // llama.cpp shows the call as it streams, its arguments still empty.
    expected: { calls: [{ name: 'python', arguments: null }], content: '' },
  },
  {
    id: 'llama.cpp/hermes/partial-after-text-name-key',
    family: 'hermes',
    source: source('Hermes 2 Pro, partial "Let\'s call something\\n<tool_call>{\\"name\\""'),
    output: 'Let\'s call something\n<tool_call>{"name"',
    finish: 'length',
    expected: { calls: [], content: "Let's call something\n" },
  },
  {
    id: 'llama.cpp/hermes/partial-after-text-name-cut',
    family: 'hermes',
    source: source('Hermes 2 Pro, partial "Let\'s call something\\n<tool_call>{\\"name"'),
    output: 'Let\'s call something\n<tool_call>{"name',
    finish: 'length',
    expected: { calls: [], content: "Let's call something\n" },
  },
  {
    id: 'llama.cpp/hermes/think-forced-open-then-call',
    family: 'qwen3',
    source: source("QwQ-32B (thinking_forced_open), \"I'm\\nthinking</think>\\n<tool_call>…\""),
    output: 'I\'m\nthinking</think>\n<tool_call>{"name": "special_function", "arguments": {"arg1": 1}}</tool_call>',
    finish: 'stop',
    thinkOpened: true,
    expected: { calls: [SPECIAL], content: '', reasoning: "I'm\nthinking" },
  },
  {
    id: 'llama.cpp/hermes/text-then-call',
    family: 'hermes',
    source: source('Hermes 2 Pro, message_assist_call_content'),
    output: `${HELLO}<tool_call>\n${SPECIAL_JSON}\n</tool_call>`,
    finish: 'stop',
    expected: { calls: [SPECIAL], content: HELLO },
  },
  {
    id: 'llama.cpp/hermes/two-calls',
    family: 'hermes',
    source: source('Hermes 2 Pro, message_assist_multiple_calls (<tool_call> blocks)'),
    output: `<tool_call>\n${SPECIAL_JSON}\n</tool_call>\n<tool_call>\n{"name": "python", "arguments": {"code":"print('hello')"}}\n</tool_call>`,
    finish: 'stop',
    expected: { calls: [SPECIAL, { name: 'python', arguments: { code: "print('hello')" } }], content: '' },
  },
  {
    id: 'llama.cpp/hermes/two-function-eq-calls',
    family: 'hermes',
    source: source('Hermes 2 Pro, message_assist_multiple_calls (<function=…> blocks)'),
    output: '<function=special_function>{"arg1": 1}</function>\n<function=python>{"code":"print(\'hello\')"}</function>',
    finish: 'stop',
    expected: { calls: [SPECIAL, { name: 'python', arguments: { code: "print('hello')" } }], content: '' },
  },
  {
    id: 'llama.cpp/hermes/bare-json-after-text',
    family: 'hermes',
    source: source('Hermes 2 Pro, "This is not a tool call:\\n{…}"'),
    output: `This is not a tool call:\n${SPECIAL_JSON}`,
    finish: 'stop',
    expected: { calls: [SPECIAL], content: 'This is not a tool call:' },
  },
  {
    id: 'llama.cpp/hermes/text-only',
    family: 'hermes',
    source: source('Hermes 2 Pro, message_assist'),
    output: HELLO,
    finish: 'stop',
    expected: { calls: [], content: HELLO },
  },
  {
    id: 'llama.cpp/hermes/think-then-text',
    family: 'hermes',
    source: source('Hermes 2 Pro, reasoning_format deepseek, message_assist_thoughts'),
    output: `<think>I'm\nthinking</think>${HELLO}`,
    finish: 'stop',
    expected: { calls: [], content: HELLO, reasoning: "I'm\nthinking" },
  },
  {
    id: 'llama.cpp/hermes/call-inside-unclosed-think',
    family: 'hermes',
    source: source('Hermes 2 Pro, reasoning_format deepseek, "<think><tool_call>nah uhg</tool_call>"'),
    output: '<think><tool_call>nah uhg</tool_call>',
    finish: 'stop',
    expected: { calls: [], content: '', reasoning: '<tool_call>nah uhg</tool_call>' },
  },
  {
    id: 'llama.cpp/hermes/template-multiline-code',
    family: 'hermes',
    source: source('Hermes 2 Pro, test_templates message_assist_call_python_lines'),
    output: '<tool_call>\n{"name": "python", "arguments": {"code":"# This is a program:\\nprint(\'hey\')"}}\n</tool_call>',
    finish: 'stop',
    expected: { calls: [{ name: 'python', arguments: { code: "# This is a program:\nprint('hey')" } }], content: '' },
  },

  // ── Llama 3.x (COMMON_CHAT_FORMAT_LLAMA_3_X, _WITH_BUILTIN_TOOLS) ──
  {
    id: 'llama.cpp/llama3/json',
    family: 'llama',
    source: source('Llama 3.1, common_chat_parse LLAMA_3_X'),
    output: '{"name": "special_function", "parameters": {"arg1": 1}}',
    finish: 'stop',
    expected: { calls: [SPECIAL], content: '' },
  },
  {
    id: 'llama.cpp/llama3/python-tag-builtin-code-interpreter',
    family: 'llama',
    source: source('Llama 3.1, test_templates message_assist_call_code_interpreter'),
    output: '<|python_tag|>code_interpreter.call(code="print(\'hey\')")',
    finish: 'stop',
    expected: { calls: [{ name: 'code_interpreter', arguments: { code: "print('hey')" } }], content: '' },
  },
  {
    id: 'llama.cpp/llama3/python-tag-builtin-python',
    family: 'llama',
    source: source('Llama 3.1, test_templates message_assist_call_python'),
    output: '<|python_tag|>python.call(code="print(\'hey\')")',
    finish: 'stop',
    expected: { calls: [{ name: 'python', arguments: { code: "print('hey')" } }], content: '' },
  },

  // ── Mistral Nemo (COMMON_CHAT_FORMAT_MISTRAL_NEMO: the v0.3 list, with ids) ──
  {
    id: 'llama.cpp/mistral-nemo/call-with-id',
    family: 'mistral',
    source: source('Mistral Nemo, test_templates message_assist_call_id'),
    output: '[TOOL_CALLS][{"name": "special_function", "arguments": {"arg1": 1}, "id": "123456789"}]',
    finish: 'stop',
    expected: { calls: [SPECIAL], content: '' },
  },

  // ── Magistral (COMMON_CHAT_FORMAT_MAGISTRAL: [THINK]…[/THINK], as Ministral 3 Reasoning writes) ──
  {
    id: 'llama.cpp/magistral/think-then-text',
    family: 'ministral',
    source: source('Magistral, message_assist_thoughts_unparsed_magistral, reasoning_format auto'),
    output: '[THINK]raisonnement[/THINK]Réponse',
    finish: 'stop',
    expected: { calls: [], content: 'Réponse', reasoning: 'raisonnement' },
  },

  // ── Firefunction v2 (functools[…], the form tabagent also reads for Phi-4-mini) ──
  {
    id: 'llama.cpp/firefunction/functools',
    family: 'phi4-mini',
    source: source('Firefunction v2, test_templates message_assist_call'),
    output: ' functools[{"name": "special_function", "arguments": {"arg1": 1}}]',
    finish: 'stop',
    expected: { calls: [SPECIAL], content: '' },
  },

  // ── Granite 3.3: <|tool_call|>[…], the same syntax as Phi-4-mini's ──
  {
    id: 'llama.cpp/granite/tool-call-list',
    family: 'phi4-mini',
    source: source('Granite 3.3, common_chat_parse GRANITE message_assist_call'),
    output: '<|tool_call|>[{"name": "special_function", "arguments": {"arg1": 1}}]',
    finish: 'stop',
    expected: { calls: [SPECIAL], content: '' },
  },
  {
    id: 'llama.cpp/granite/cut-after-name',
    family: 'phi4-mini',
    source: source('Granite 3.3, partial message_assist_call_empty_args'),
    output: '<|tool_call|>[{"name": "special_function"',
    finish: 'length',
    expected: { calls: [{ name: 'special_function', arguments: null }], content: '' },
  },
  {
    id: 'llama.cpp/granite/cut-in-arguments',
    family: 'phi4-mini',
    source: source('Granite 3.3, partial message_assist_call_cutoff_args'),
    output: '<|tool_call|>[{"name": "special_function", "arguments": {"arg',
    finish: 'length',
    expected: { calls: [{ name: 'special_function', arguments: null }], content: '' },
  },
  {
    id: 'llama.cpp/granite/think-then-list-cut-at-second-object',
    family: 'phi4-mini',
    source: source('Granite 3.3, partial message_assist_call_thoughts'),
    output: '<think>I\'m\nthinking</think><|tool_call|>[{"name": "special_function", "arguments": {"arg1": 1}, {',
    finish: 'length',
    expected: { calls: [SPECIAL], content: '', reasoning: "I'm\nthinking" },
  },

  // ── Ministral 3 Reasoning (peg_tester, mistralai-Ministral-3-14B-Reasoning-2512.jinja) ──
  {
    id: 'llama.cpp/ministral3/text',
    family: 'ministral',
    source: later('Ministral-3-14B-Reasoning-2512, message_assist'),
    output: HELLO,
    finish: 'stop',
    expected: { calls: [], content: HELLO },
  },
  {
    id: 'llama.cpp/ministral3/think-then-text',
    family: 'ministral',
    source: later('Ministral-3-14B-Reasoning-2512, reasoning_format auto, message_assist_thoughts'),
    output: `[THINK]I'm\nthinking[/THINK]${HELLO}`,
    finish: 'stop',
    expected: { calls: [], content: HELLO, reasoning: "I'm\nthinking" },
  },
  {
    id: 'llama.cpp/ministral3/call',
    family: 'ministral',
    source: later('Ministral-3-14B-Reasoning-2512, message_assist_call'),
    output: '[TOOL_CALLS]special_function[ARGS]{"arg1":1}',
    finish: 'stop',
    expected: { calls: [SPECIAL], content: '' },
  },
  {
    id: 'llama.cpp/ministral3/think-then-call',
    family: 'ministral',
    source: later('Ministral-3-14B-Reasoning-2512, message_assist_call_thoughts'),
    output: '[THINK]I\'m\nthinking[/THINK][TOOL_CALLS]special_function[ARGS]{"arg1":1}',
    finish: 'stop',
    expected: { calls: [SPECIAL], content: '', reasoning: "I'm\nthinking" },
  },
  {
    id: 'llama.cpp/ministral3/two-calls',
    family: 'ministral',
    source: later('Ministral-3-14B-Reasoning-2512, parallel_tool_calls'),
    output: '[TOOL_CALLS]special_function[ARGS]{"arg1": 1}[TOOL_CALLS]special_function_with_opt[ARGS]{"arg1": 1, "arg2": 2}',
    finish: 'stop',
    expected: { calls: [SPECIAL, { name: 'special_function_with_opt', arguments: { arg1: 1, arg2: 2 } }] },
  },
  {
    id: 'llama.cpp/ministral3/call-marker-inside-thinking',
    family: 'ministral',
    source: later('Ministral-3-14B-Reasoning-2512, fake tool call marker in reasoning'),
    output: '[THINK]Let me think about [TOOL_CALLS]special_function[ARGS]{"arg1":1} and more[/THINK][TOOL_CALLS]special_function[ARGS]{"arg1": 1}',
    finish: 'stop',
    expected: { calls: [SPECIAL], reasoning: 'Let me think about [TOOL_CALLS]special_function[ARGS]{"arg1":1} and more' },
  },

  // ── Qwen-style XML calls (peg_tester, NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.jinja: the Qwen3-Coder syntax) ──
  {
    id: 'llama.cpp/xml/call',
    family: 'qwen3.5',
    source: later('Nemotron-3 Nano, message_assist_call'),
    output: '<tool_call>\n<function=special_function>\n<parameter=arg1>\n1\n</parameter>\n</function>\n</tool_call>\n',
    finish: 'stop',
    expected: { calls: [SPECIAL], content: '' },
  },
  {
    id: 'llama.cpp/xml/two-calls',
    family: 'qwen3.5',
    source: later('Nemotron-3 Nano, parallel_tool_calls'),
    output:
      '<tool_call>\n<function=special_function>\n<parameter=arg1>\n1\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=special_function_with_opt>\n<parameter=arg1>\n1\n</parameter>\n<parameter=arg2>\n2\n</parameter>\n</function>\n</tool_call>\n',
    finish: 'stop',
    expected: { calls: [SPECIAL, { name: 'special_function_with_opt', arguments: { arg1: 1, arg2: 2 } }] },
  },
  {
    id: 'llama.cpp/xml/multiline-code',
    family: 'qwen3.5',
    source: later('Nemotron-3 Nano, python_tool'),
    output: '<tool_call>\n<function=python>\n<parameter=code>\ndef hello():\n    print("Hello, world!")\n\nhello()\n</parameter>\n</function>\n</tool_call>\n',
    finish: 'stop',
    expected: { calls: [{ name: 'python', arguments: { code: 'def hello():\n    print("Hello, world!")\n\nhello()' } }] },
  },
  {
    id: 'llama.cpp/xml/call-inside-thinking',
    family: 'qwen3.5',
    source: later('Nemotron-3 Nano, tool call segment in reasoning (thinking enabled)'),
    output:
      'Let\'s call a tool: <tool_call>\n<function=python>\n<parameter=code>\ndef hello():\n    print("Not the real call!")\n\nhello()\n</parameter>\n</function>\n</tool_call>\n</think>\n<tool_call>\n<function=python>\n<parameter=code>\ndef hello():\n    print("Hello, world!")\n\nhello()\n</parameter>\n</function>\n</tool_call>\n',
    finish: 'stop',
    thinkOpened: true,
    expected: {
      calls: [{ name: 'python', arguments: { code: 'def hello():\n    print("Hello, world!")\n\nhello()' } }],
      reasoning: 'Let\'s call a tool: <tool_call>\n<function=python>\n<parameter=code>\ndef hello():\n    print("Not the real call!")\n\nhello()\n</parameter>\n</function>\n</tool_call>\n',
    },
  },

  // ── Gemma 4 (peg_tester, google-gemma-4-31B-it.jinja) ──
  {
    id: 'llama.cpp/gemma4/text',
    family: 'gemma4',
    source: later('Gemma 4, "Hello, world!"'),
    output: 'Hello, world!',
    finish: 'stop',
    expected: { calls: [], content: 'Hello, world!' },
  },
  {
    id: 'llama.cpp/gemma4/thought-channel-then-text',
    family: 'gemma4',
    source: later('Gemma 4, reasoning_format auto, message_assist_thoughts'),
    output: `<|channel>thought\nI'm\nthinking<channel|>${HELLO}`,
    finish: 'stop',
    expected: { calls: [], content: HELLO, reasoning: "I'm\nthinking" },
  },
  ...(
    [
      ['string-argument', '<|tool_call>call:get_time{city:<|"|>London<|"|>}<tool_call|>', [{ name: 'get_time', arguments: { city: 'London' } }]],
      ['string-with-space', '<|tool_call>call:get_time{city:<|"|>San Francisco<|"|>}<tool_call|>', [{ name: 'get_time', arguments: { city: 'San Francisco' } }]],
      ['empty-arguments', '<|tool_call>call:empty_args{}<tool_call|>', [{ name: 'empty_args', arguments: {} }]],
      [
        'two-calls',
        '<|tool_call>call:get_time{city:<|"|>London<|"|>}<tool_call|><|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>',
        [
          { name: 'get_time', arguments: { city: 'London' } },
          { name: 'get_weather', arguments: { city: 'Paris' } },
        ],
      ],
      ['integer', '<|tool_call>call:special_function{arg1:42}<tool_call|>', [{ name: 'special_function', arguments: { arg1: 42 } }]],
      ['negative-number', '<|tool_call>call:special_function{arg1:-7}<tool_call|>', [{ name: 'special_function', arguments: { arg1: -7 } }]],
      ['decimal', '<|tool_call>call:amount{orig:3.14}<tool_call|>', [{ name: 'amount', arguments: { orig: 3.14 } }]],
    ] satisfies [string, string, PeerCall[]][]
  ).map(
    ([name, output, calls]): PeerCase => ({
      id: `llama.cpp/gemma4/${name}`,
      family: 'gemma4',
      source: later(`Gemma 4, tool call ${name}`),
      output,
      finish: 'stop',
      expected: { calls, content: '' },
    }),
  ),
  {
    id: 'llama.cpp/gemma4/text-then-call',
    family: 'gemma4',
    source: later('Gemma 4, message_with_content_and_tool_call'),
    output: `${HELLO}<|tool_call>call:get_time{city:<|"|>Paris<|"|>}<tool_call|>`,
    finish: 'stop',
    expected: { calls: [{ name: 'get_time', arguments: { city: 'Paris' } }], content: HELLO },
  },
];
