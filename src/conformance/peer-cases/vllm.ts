// vLLM's tool parser unit tests (tests/tool_parsers/), restated as data.
// Each case names the test it comes from; the text and the expected calls are
// the test's own. Where a test checks only some of the result (a count, a
// name), only that is stated.
import type { PeerCall, PeerCase, PeerSource } from './types.js';

const REPO = 'vllm-project/vllm';
const at = (path: string, commit: string) => (test: string): PeerSource => ({ repo: REPO, path, commit, test });

const llama3 = at('tests/tool_parsers/test_llama3_json_tool_parser.py', '1e499e36c5828a75c6ca8b76631d264be1187005');
const hermes = at('tests/tool_parsers/test_hermes_tool_parser.py', '0eb73d6a09be117cdd0d4da4d6239321001c0d0c');
const mistral = at('tests/tool_parsers/test_mistral_tool_parser.py', '002d5731d3ee99b92d80b103be81c212245f1acf');
const pythonic = at('tests/tool_parsers/test_pythonic_tool_parser.py', '0716d268c7d81e445bd9ae30205f7bf4cfacd7d5');
const phi4 = at('tests/tool_parsers/test_phi4mini_tool_parser.py', '2471a1c1430e2a066029bc743562eee6db2feab0');
const qwenXml = at('tests/tool_parsers/test_qwen3xml_tool_parser.py', '1cbe721380ab9295854e4db1e819c40b14c54828');
const qwenCoder = at('tests/tool_parsers/test_qwen3coder_tool_parser.py', '049d8df27dda4fd0caffa289ea12bfe5a47ac794');
const gemma4 = at('tests/tool_parsers/test_gemma4_tool_parser.py', '027004de3715411197be51ced325705abcf740a7');

const XML_PARAMS = (params: Record<string, string>) => Object.entries(params).map(([k, v]) => `<parameter=${k}>\n${v}\n</parameter>\n`).join('');
const WEATHER_XML = (params: Record<string, string>) => `<tool_call>\n<function=get_current_weather>\n${XML_PARAMS(params)}</function>\n</tool_call>`;

const SF = { city: 'San Francisco', state: 'CA', unit: 'celsius' };
const SIMPLE_PY = "get_weather(city='San Francisco', metric='celsius')";
const SIMPLE_PY_CALL = { name: 'get_weather', arguments: { city: 'San Francisco', metric: 'celsius' } };
const MORE_TYPES_PY = "register_user(name='John Doe', age=37, address={'city': 'San Francisco', 'state': 'CA'}, role=None, passed_test=True, aliases=['John', 'Johnny'])";
const MORE_TYPES_PY_CALL = {
  name: 'register_user',
  arguments: { name: 'John Doe', age: 37, address: { city: 'San Francisco', state: 'CA' }, role: null, passed_test: true, aliases: ['John', 'Johnny'] },
};

export const vllmCases: PeerCase[] = [
  // ── Llama 3 JSON (Llama3JsonToolParser) ──
  {
    id: 'vllm/llama3_json/simple-in-prose',
    family: 'llama',
    source: llama3('test_extract_tool_calls_simple'),
    output: 'Here is the result: {"name": "getOpenIncidentsTool", "parameters": {}} Would you like to know more?',
    finish: 'stop',
    expected: { calls: [{ name: 'getOpenIncidentsTool', arguments: {} }], content: null },
  },
  {
    id: 'vllm/llama3_json/with-arguments',
    family: 'llama',
    source: llama3('test_extract_tool_calls_with_arguments'),
    output: '{"name": "searchTool", "parameters": {"query": "test query", "limit": 10}}',
    finish: 'stop',
    expected: { calls: [{ name: 'searchTool', arguments: { query: 'test query', limit: 10 } }] },
  },
  {
    id: 'vllm/llama3_json/no-json',
    family: 'llama',
    source: llama3('test_extract_tool_calls_no_json'),
    output: "This is just some text without any tool calls",
    finish: 'stop',
    expected: { calls: [], content: 'This is just some text without any tool calls' },
  },
  {
    id: 'vllm/llama3_json/invalid-json',
    family: 'llama',
    source: llama3('test_extract_tool_calls_invalid_json'),
    output: '{"name": "invalidTool", "parameters": {invalid json}',
    finish: 'stop',
    expected: { calls: [], content: '{"name": "invalidTool", "parameters": {invalid json}' },
  },
  {
    id: 'vllm/llama3_json/arguments-key',
    family: 'llama',
    source: llama3('test_extract_tool_calls_with_arguments_key'),
    output: '{"name": "searchTool", "arguments": {"query": "test"}}',
    finish: 'stop',
    expected: { calls: [{ name: 'searchTool', arguments: { query: 'test' } }] },
  },
  {
    id: 'vllm/llama3_json/multiple-semicolon',
    family: 'llama',
    source: llama3('test_extract_tool_calls_multiple_json'),
    output:
      '{"name": "searchTool", "parameters": {"query": "test1"}}; {"name": "getOpenIncidentsTool", "parameters": {}}; {"name": "searchTool", "parameters": {"query": "test2"}}',
    finish: 'stop',
    expected: {
      calls: [
        { name: 'searchTool', arguments: { query: 'test1' } },
        { name: 'getOpenIncidentsTool', arguments: {} },
        { name: 'searchTool', arguments: { query: 'test2' } },
      ],
    },
  },
  {
    id: 'vllm/llama3_json/multiple-semicolon-spaced',
    family: 'llama',
    source: llama3('test_extract_tool_calls_multiple_json_with_whitespace'),
    output:
      '{"name": "searchTool", "parameters": {"query": "test1"}} ; {"name": "getOpenIncidentsTool", "parameters": {}} ; {"name": "searchTool", "parameters": {"query": "test2"}}',
    finish: 'stop',
    expected: { calls: [{ name: 'searchTool' }, { name: 'getOpenIncidentsTool' }, { name: 'searchTool' }] },
  },
  {
    id: 'vllm/llama3_json/multiple-in-prose',
    family: 'llama',
    source: llama3('test_extract_tool_calls_multiple_json_with_surrounding_text'),
    output:
      'Here are the results: {"name": "searchTool", "parameters": {"query": "test1"}}; {"name": "getOpenIncidentsTool", "parameters": {}}; {"name": "searchTool", "parameters": {"query": "test2"}} Would you like to know more?',
    finish: 'stop',
    expected: { calls: [{ name: 'searchTool' }, { name: 'getOpenIncidentsTool' }, { name: 'searchTool' }] },
  },
  {
    id: 'vllm/llama3_json/deeply-nested',
    family: 'llama',
    source: llama3('test_extract_tool_calls_deeply_nested_json'),
    output: '{"name": "complexTool", "parameters": {"level1": {"level2": {"level3": {"level4": {"value": "deep"}}}}}}',
    finish: 'stop',
    expected: { calls: [{ name: 'complexTool', arguments: { level1: { level2: { level3: { level4: { value: 'deep' } } } } } }] },
  },
  {
    id: 'vllm/llama3_json/multiple-deeply-nested',
    family: 'llama',
    source: llama3('test_extract_tool_calls_multiple_with_deep_nesting'),
    output: '{"name": "simpleTool", "parameters": {"value": "test"}}; {"name": "complexTool", "parameters": {"config": {"database": {"connection": {"pool": {"size": 10}}}}}}',
    finish: 'stop',
    expected: {
      calls: [
        { name: 'simpleTool', arguments: { value: 'test' } },
        { name: 'complexTool', arguments: { config: { database: { connection: { pool: { size: 10 } } } } } },
      ],
    },
  },
  {
    id: 'vllm/llama3_json/brackets-in-strings',
    family: 'llama',
    source: llama3('test_extract_tool_calls_with_quotes_and_brackets_in_string'),
    output: '{"name": "searchTool", "parameters": {"query": "test {value} [complex]","nested": {"inner": "more {brackets}"}}}',
    finish: 'stop',
    expected: { calls: [{ name: 'searchTool', arguments: { query: 'test {value} [complex]', nested: { inner: 'more {brackets}' } } }] },
  },
  {
    id: 'vllm/llama3_json/escaped-quotes',
    family: 'llama',
    source: llama3('test_extract_tool_calls_with_escaped_quotes_in_nested_json'),
    output: '{"name": "parserTool", "parameters": {"text": "He said \\"Hello {world}\\""}}',
    finish: 'stop',
    expected: { calls: [{ name: 'parserTool', arguments: { text: 'He said "Hello {world}"' } }] },
  },
  {
    id: 'vllm/llama3_json/missing-name',
    family: 'llama',
    source: llama3('test_extract_tool_calls_missing_name_key'),
    output: '{"parameters": {}}',
    finish: 'stop',
    expected: { calls: [], content: '{"parameters": {}}' },
  },
  {
    id: 'vllm/llama3_json/missing-parameters',
    family: 'llama',
    source: llama3('test_extract_tool_calls_missing_parameters_and_arguments_key'),
    output: '{"name": "toolWithoutParams"}',
    finish: 'stop',
    expected: { calls: [], content: '{"name": "toolWithoutParams"}' },
  },
  {
    id: 'vllm/llama3_json/brace-in-trailing-text',
    family: 'llama',
    source: llama3('test_extract_tool_calls_brace_in_trailing_text'),
    output: '{"name": "searchTool", "parameters": {"query": "test"}} I used {searchTool} for this.',
    finish: 'stop',
    expected: { calls: [{ name: 'searchTool' }] },
  },
  {
    id: 'vllm/llama3_json/json-in-trailing-text',
    family: 'llama',
    source: llama3('test_extract_tool_calls_json_fragment_in_trailing_text'),
    output: '{"name": "searchTool", "parameters": {"query": "test"}} The arguments I passed were {"query": "test"}',
    finish: 'stop',
    expected: { calls: [{ name: 'searchTool' }] },
  },
  ...(
    [
      ['semicolon-space', '; '],
      ['semicolon', ';'],
      ['semicolon-newline', ';\n'],
      ['newline', '\n'],
    ] as const
  ).map(
    ([name, separator]): PeerCase => ({
      id: `vllm/llama3_json/parallel-separated-by-${name}`,
      family: 'llama',
      source: llama3(`test_extract_tool_calls_streaming_parallel_separators[${JSON.stringify(separator)}]`),
      output: `{"name": "searchTool", "parameters": {"query": "test1"}}${separator}{"name": "getOpenIncidentsTool", "parameters": {}}`,
      finish: 'stop',
      expected: { calls: [{ name: 'searchTool', arguments: { query: 'test1' } }, { name: 'getOpenIncidentsTool' }] },
    }),
  ),

  // ── Hermes / Qwen (Hermes2ProToolParser, run with Qwen3-32B's tokenizer) ──
  {
    id: 'vllm/hermes/just-text',
    family: 'qwen3',
    source: hermes('test_hermes_parser_streaming_just_forward_text'),
    output: 'This is some prior text that has nothing to do with tool calling.',
    finish: 'stop',
    expected: { calls: [], content: 'This is some prior text that has nothing to do with tool calling.' },
  },
  {
    id: 'vllm/hermes/boolean-argument',
    family: 'qwen3',
    source: hermes('test_hermes_parser_streaming_failure_case_bug_19056'),
    output: '<tool_call>\n{"name": "final_answer", "arguments": {"trigger": true}}\n</tool_call>',
    finish: 'stop',
    expected: { calls: [{ name: 'final_answer', arguments: { trigger: true } }] },
  },
  {
    id: 'vllm/hermes/streaming',
    family: 'qwen3',
    source: hermes('test_hermes_parser_streaming'),
    output: '<tool_call>{"name": "get_current_temperature","arguments": {"location":"San Francisco, California, United States", "unit": "celsius"}}</tool_call>',
    finish: 'stop',
    expected: { calls: [{ name: 'get_current_temperature', arguments: { location: 'San Francisco, California, United States', unit: 'celsius' } }] },
  },
  {
    id: 'vllm/hermes/content-then-call',
    family: 'qwen3',
    source: hermes('test_hermes_streaming_content_then_tool_call_with_stream_interval'),
    output: 'Sure, let me check the weather.<tool_call>{"name": "get_weather", "arguments": {"city": "NYC"}}</tool_call>',
    finish: 'stop',
    expected: { calls: [{ name: 'get_weather', arguments: { city: 'NYC' } }], content: 'Sure, let me check the weather.' },
  },
  {
    id: 'vllm/hermes/two-calls-adjacent',
    family: 'qwen3',
    source: hermes('test_hermes_streaming_multiple_tool_calls_with_stream_interval'),
    output: '<tool_call>{"name": "search", "arguments": {"q": "cats"}}</tool_call><tool_call>{"name": "search", "arguments": {"q": "dogs"}}</tool_call>',
    finish: 'stop',
    expected: {
      calls: [
        { name: 'search', arguments: { q: 'cats' } },
        { name: 'search', arguments: { q: 'dogs' } },
      ],
    },
  },
  {
    id: 'vllm/hermes/no-tool-call',
    family: 'qwen3',
    source: hermes('test_hermes_parser_non_streaming_no_tool_call'),
    output: 'This is not a tool call.',
    finish: 'stop',
    expected: { calls: [] },
  },
  {
    id: 'vllm/hermes/until-eos',
    family: 'qwen3',
    source: hermes('test_hermes_parser_non_streaming_tool_call_until_eos'),
    output: '<tool_call>\n{"name": "final_answer", "arguments": {"trigger": true}}',
    finish: 'stop',
    expected: { calls: [{ name: 'final_answer', arguments: { trigger: true } }] },
  },
  {
    id: 'vllm/hermes/invalid-json',
    family: 'qwen3',
    source: hermes('test_hermes_parser_non_streaming_tool_call_invalid_json'),
    output: '<tool_call>\n{"name": "final_answer", "arguments": {"trigger": true}',
    finish: 'stop',
    expected: { calls: [] },
  },
  {
    id: 'vllm/hermes/serialized-arguments',
    family: 'qwen3',
    source: hermes('test_hermes_parser_non_streaming_serialized_arguments'),
    output: '<tool_call>\n{"name": "get_db_config", "arguments": "{\\"param\\": \\"max_connections\\"}"}\n</tool_call>',
    finish: 'stop',
    expected: { calls: [{ name: 'get_db_config', arguments: { param: 'max_connections' } }] },
  },
  {
    id: 'vllm/hermes/bare-string-arguments',
    family: 'qwen3',
    source: hermes('test_hermes_parser_non_streaming_bare_string_arguments'),
    output: '<tool_call>\n{"name": "do_thing", "arguments": "hello"}\n</tool_call>',
    finish: 'stop',
    expected: { calls: [{ name: 'do_thing', arguments: null }] },
  },

  // ── Mistral 7B v0.3 (pre-v11 tokenizer) ──
  {
    id: 'vllm/mistral/v3-single-no-space',
    family: 'mistral',
    source: mistral('test_extract_tool_calls_pre_v11_tokenizer[single_tool_add]'),
    output: '[TOOL_CALLS][{"name": "add", "arguments":{"a": 3.5, "b": 4}}]',
    finish: 'stop',
    expected: { calls: [{ name: 'add', arguments: { a: 3.5, b: 4 } }], content: null },
  },
  {
    id: 'vllm/mistral/v3-single',
    family: 'mistral',
    source: mistral('test_extract_tool_calls_pre_v11_tokenizer[single_tool_weather]'),
    output: '[TOOL_CALLS] [{"name": "get_current_weather", "arguments":{"city": "San Francisco", "state": "CA", "unit": "celsius"}}]',
    finish: 'stop',
    expected: { calls: [{ name: 'get_current_weather', arguments: SF }], content: null },
  },
  {
    id: 'vllm/mistral/v3-arguments-before-name',
    family: 'mistral',
    source: mistral('test_extract_tool_calls_pre_v11_tokenizer[argument_before_name]'),
    output: '[TOOL_CALLS] [{"arguments":{"city": "San Francisco", "state": "CA", "unit": "celsius"}, "name": "get_current_weather"}]',
    finish: 'stop',
    expected: { calls: [{ name: 'get_current_weather', arguments: SF }], content: null },
  },
  {
    id: 'vllm/mistral/v3-name-in-arguments',
    family: 'mistral',
    source: mistral('test_extract_tool_calls_pre_v11_tokenizer[argument_before_name_and_name_in_argument]'),
    output: '[TOOL_CALLS] [{"arguments":{"name": "John Doe"}, "name": "get_age"}]',
    finish: 'stop',
    expected: { calls: [{ name: 'get_age', arguments: { name: 'John Doe' } }], content: null },
  },
  {
    id: 'vllm/mistral/v3-two-calls',
    family: 'mistral',
    source: mistral('test_extract_tool_calls_pre_v11_tokenizer[multiple_tools]'),
    output:
      '[TOOL_CALLS] [{"name": "add", "arguments": {"a": 3.5, "b": 4}}, {"name": "get_current_weather", "arguments":{"city": "San Francisco", "state": "CA", "unit": "celsius"}}]',
    finish: 'stop',
    expected: {
      calls: [
        { name: 'add', arguments: { a: 3.5, b: 4 } },
        { name: 'get_current_weather', arguments: SF },
      ],
      content: null,
    },
  },
  {
    id: 'vllm/mistral/v3-content-before',
    family: 'mistral',
    source: mistral('test_extract_tool_calls_pre_v11_tokenizer[content_before_tool]'),
    output: 'Hello[TOOL_CALLS] [{"name": "add", "arguments":{"a": 1, "b": 2}}]',
    finish: 'stop',
    expected: { calls: [{ name: 'add', arguments: { a: 1, b: 2 } }], content: 'Hello' },
  },
  {
    id: 'vllm/mistral/v3-trailing-data',
    family: 'mistral',
    source: mistral('test_extract_tool_calls_pre_v11_tokenizer[trailing_data_after_json]'),
    output: '[TOOL_CALLS] [{"name": "get_current_weather", "arguments":{"city": "Dallas", "state": "TX", "unit": "fahrenheit"}}]\nextra trailing data',
    finish: 'stop',
    expected: { calls: [{ name: 'get_current_weather', arguments: { city: 'Dallas', state: 'TX', unit: 'fahrenheit' } }], content: null },
  },
  {
    id: 'vllm/mistral/v3-trailing-data-streamed',
    family: 'mistral',
    source: mistral('test_extract_tool_calls_streaming_pre_v11_tokenizer[trailing_data_after_json]'),
    output: '[TOOL_CALLS] [{"name": "get_current_weather", "arguments":{"city": "Dallas", "state": "TX", "unit": "fahrenheit"}}]\nextra trailing data',
    finish: 'stop',
    expected: { calls: [{ name: 'get_current_weather', arguments: { city: 'Dallas', state: 'TX', unit: 'fahrenheit' } }], content: '\nextra trailing data' },
  },
  {
    id: 'vllm/mistral/v3-junk-before-list',
    family: 'mistral',
    source: mistral('test_extract_tool_calls_pre_v11_regex_fallback'),
    output: '[TOOL_CALLS]  junk [{"name": "add", "arguments":{"a": 1, "b": 2}}] trail',
    finish: 'stop',
    expected: { calls: [{ name: 'add', arguments: { a: 1, b: 2 } }] },
  },
  {
    id: 'vllm/mistral/v3-not-json',
    family: 'mistral',
    source: mistral('test_extract_tool_calls_pre_v11_regex_fallback_fails'),
    output: '[TOOL_CALLS] not json at all',
    finish: 'stop',
    expected: { calls: [], content: 'not json at all' },
  },
  {
    id: 'vllm/mistral/v3-spaced-list-streamed',
    family: 'mistral',
    source: mistral('test_extract_tool_calls_streaming_pre_v11_tokenizer[single_tool_add]'),
    output: '[TOOL_CALLS]  [ {"name":"add" , "arguments" : {"a": 3, "b": 4} } ]',
    finish: 'stop',
    expected: { calls: [{ name: 'add', arguments: { a: 3, b: 4 } }], content: '' },
  },
  {
    id: 'vllm/mistral/v3-string-arguments-streamed',
    family: 'mistral',
    source: mistral('test_extract_tool_calls_streaming_pre_v11_tokenizer[single_tool_add_strings]'),
    output: '[TOOL_CALLS] [{"name": "add", "arguments":{"a": "3", "b": "4"}}]',
    finish: 'stop',
    expected: { calls: [{ name: 'add', arguments: { a: '3', b: '4' } }], content: '' },
  },

  // ── Mistral v11+ tokenizer: [TOOL_CALLS]name{…} (Ministral 3's format) ──
  {
    id: 'vllm/mistral/v11-single',
    family: 'ministral',
    source: mistral('test_extract_tool_calls[single_tool_add]'),
    output: '[TOOL_CALLS]add_this_and_that{"a": 3.5, "b": 4}',
    finish: 'stop',
    expected: { calls: [{ name: 'add_this_and_that', arguments: { a: 3.5, b: 4 } }], content: null },
  },
  {
    id: 'vllm/mistral/v11-weather',
    family: 'ministral',
    source: mistral('test_extract_tool_calls[single_tool_weather]'),
    output: '[TOOL_CALLS]get_current_weather{"city": "San Francisco", "state": "CA", "unit": "celsius"}',
    finish: 'stop',
    expected: { calls: [{ name: 'get_current_weather', arguments: SF }], content: null },
  },
  {
    id: 'vllm/mistral/v11-two-calls',
    family: 'ministral',
    source: mistral('test_extract_tool_calls[multiple_tool_calls]'),
    output: '[TOOL_CALLS]add{"a": 3.5, "b": 4}[TOOL_CALLS]multiply{"a": 3, "b": 6}',
    finish: 'stop',
    expected: {
      calls: [
        { name: 'add', arguments: { a: 3.5, b: 4 } },
        { name: 'multiply', arguments: { a: 3, b: 6 } },
      ],
      content: null,
    },
  },
  {
    id: 'vllm/mistral/v11-after-brace-text-unclosed',
    family: 'ministral',
    source: mistral('test_extract_tool_calls[complex]'),
    output: 'hi{hi[TOOL_CALLS]bash{"command": "print(\\"hello world!\\")\\nre.compile(r\'{}\')"',
    finish: 'stop',
    // vLLM returns the arguments cut where the text ends.
    expected: { calls: [{ name: 'bash', arguments: null }], content: 'hi{hi' },
  },
  {
    id: 'vllm/mistral/v11-after-brace-text',
    family: 'ministral',
    source: mistral('test_extract_tool_calls[wrong_json]'),
    output: 'hi{hi[TOOL_CALLS]bash{"command": "print(\\"hello world!\\")\\nre.compile(r\'{}\')"}',
    finish: 'stop',
    expected: { calls: [{ name: 'bash', arguments: { command: "print(\"hello world!\")\nre.compile(r'{}')" } }], content: 'hi{hi' },
  },
  {
    id: 'vllm/mistral/v11-no-arguments',
    family: 'ministral',
    source: mistral('test_extract_tool_calls_v11_without_args_skipped'),
    output: '[TOOL_CALLS]toolname_no_args',
    finish: 'stop',
    expected: { calls: [], content: null },
  },
  {
    id: 'vllm/mistral/v11-content-before-streamed',
    family: 'ministral',
    source: mistral('v11-content_before_tool'),
    output: 'bla[TOOL_CALLS]add_this_and_that{"a": 3.5, "b": 4}',
    finish: 'stop',
    expected: { calls: [{ name: 'add_this_and_that', arguments: { a: 3.5, b: 4 } }], content: 'bla' },
  },

  // ── Pythonic lists (PythonicToolParser; Llama 3.2's pythonic calls) ──
  {
    id: 'vllm/pythonic/no-call',
    family: 'llama',
    source: pythonic('test_no_tool_call'),
    output: 'How can I help you today?',
    finish: 'stop',
    expected: { calls: [], content: 'How can I help you today?' },
  },
  ...(
    [
      ['simple', `[${SIMPLE_PY}]`, [SIMPLE_PY_CALL]],
      ['more_types', `[${MORE_TYPES_PY}]`, [MORE_TYPES_PY_CALL]],
      ['parameterless', '[get_weather()]', [{ name: 'get_weather', arguments: {} }]],
      ['empty_dict', '[do_something_cool(additional_data={})]', [{ name: 'do_something_cool', arguments: { additional_data: {} } }]],
      ['empty_list', '[do_something_cool(steps=[])]', [{ name: 'do_something_cool', arguments: { steps: [] } }]],
      [
        'escaped_string',
        String.raw`[get_weather(city='Martha\'s Vineyard', metric='\"cool units\"')]`,
        [{ name: 'get_weather', arguments: { city: "Martha's Vineyard", metric: '"cool units"' } }],
      ],
      ['parallel_calls', `[${SIMPLE_PY}, ${MORE_TYPES_PY}]`, [SIMPLE_PY_CALL, MORE_TYPES_PY_CALL]],
    ] satisfies [string, string, PeerCall[]][]
  ).map(
    ([name, output, calls]): PeerCase => ({
      id: `vllm/pythonic/${name}`,
      family: 'llama',
      source: pythonic(`test_tool_call[${name}_nonstreaming]`),
      output,
      finish: 'stop',
      expected: { calls: [...calls], content: null },
    }),
  ),
  {
    id: 'vllm/pythonic/three-calls',
    family: 'llama',
    source: pythonic('test_streaming_tool_call_with_large_steps'),
    output: "[get_weather(city='San Francisco', metric='celsius'), get_weather(), do_something_cool(steps=[])]",
    finish: 'stop',
    expected: { calls: [SIMPLE_PY_CALL, { name: 'get_weather', arguments: {} }, { name: 'do_something_cool', arguments: { steps: [] } }], content: '' },
  },
  {
    id: 'vllm/pythonic/bad-sibling',
    family: 'llama',
    source: pythonic('test_bad_sibling_call_does_not_drop_good_calls'),
    output: `[bad(x=b'z'), ${SIMPLE_PY}]`,
    finish: 'stop',
    expected: { calls: [SIMPLE_PY_CALL] },
  },
  {
    id: 'vllm/pythonic/non-finite-number',
    family: 'llama',
    source: pythonic('test_non_finite_argument_rejected'),
    output: `[calc(x=1e999), ${SIMPLE_PY}]`,
    finish: 'stop',
    expected: { calls: [SIMPLE_PY_CALL] },
  },
  {
    id: 'vllm/pythonic/unparsable-sibling',
    family: 'llama',
    source: pythonic('test_good_call_survives_unparsable_sibling'),
    output: `[${SIMPLE_PY}, f(a='x 'y', b='z')]`,
    finish: 'stop',
    expected: { calls: [SIMPLE_PY_CALL] },
  },
  {
    id: 'vllm/pythonic/unrecoverable',
    family: 'llama',
    source: pythonic('test_unrecoverable_block_still_reports_no_tool_call'),
    output: "[f(a='x 'y' 'z), g(b='p 'q' 'r)]",
    finish: 'stop',
    expected: { calls: [], content: "[f(a='x 'y' 'z), g(b='p 'q' 'r)]" },
  },
  {
    id: 'vllm/pythonic/mismatched-brackets',
    family: 'llama',
    source: pythonic('test_streaming_mismatched_brackets_reported_once'),
    output: '[foo(x=1])]',
    finish: 'stop',
    expected: { calls: [] },
  },

  // ── Phi-4-mini functools[…] (the common ToolParserTests with Phi-4-mini's data) ──
  {
    id: 'vllm/phi4mini/no-call',
    family: 'phi4-mini',
    source: phi4('test_no_tool_calls'),
    output: 'This is a regular response without any tool calls.',
    finish: 'stop',
    expected: { calls: [], content: 'This is a regular response without any tool calls.' },
  },
  {
    id: 'vllm/phi4mini/single',
    family: 'phi4-mini',
    source: phi4('test_single_tool_call_simple_args'),
    output: 'functools[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]',
    finish: 'stop',
    expected: { calls: [{ name: 'get_weather', arguments: { city: 'Tokyo' } }] },
  },
  {
    id: 'vllm/phi4mini/parallel',
    family: 'phi4-mini',
    source: phi4('test_parallel_tool_calls'),
    output: 'functools[\n  {"name": "get_weather", "arguments": {"city": "Tokyo"}},\n  {"name": "get_time", "arguments": {"timezone": "Asia/Tokyo"}}\n]',
    finish: 'stop',
    expected: { calls: [{ name: 'get_weather' }, { name: 'get_time' }] },
  },
  {
    id: 'vllm/phi4mini/empty-arguments',
    family: 'phi4-mini',
    source: phi4('test_empty_arguments'),
    output: 'functools[{"name": "refresh", "arguments": {}}]',
    finish: 'stop',
    expected: { calls: [{ name: 'refresh', arguments: {} }] },
  },
  {
    id: 'vllm/phi4mini/surrounding-text',
    family: 'phi4-mini',
    source: phi4('test_surrounding_text'),
    output: 'Let me check the weather for you.\nfunctools[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]\nWould you like to know more?',
    finish: 'stop',
    expected: { calls: [{ name: 'get_weather' }] },
  },
  {
    id: 'vllm/phi4mini/escaped-strings',
    family: 'phi4-mini',
    source: phi4('test_escaped_strings'),
    output:
      'functools[{\n  "name": "test_function",\n  "arguments": {\n    "quoted": "He said \\"hello\\"",\n    "path": "C:\\\\Users\\\\file.txt",\n    "newline": "line1\\nline2",\n    "unicode": "emoji: 🎉"\n  }\n}]',
    finish: 'stop',
    expected: { calls: [{ name: 'test_function', arguments: { quoted: 'He said "hello"', path: 'C:\\Users\\file.txt', newline: 'line1\nline2', unicode: 'emoji: 🎉' } }] },
  },

  // ── Qwen3 XML (Qwen3-Coder / Qwen3.5 format; the common ToolParserTests) ──
  {
    id: 'vllm/qwen3xml/single',
    family: 'qwen3.5',
    source: qwenXml('test_single_tool_call_simple_args'),
    output: '<tool_call>\n<function=get_weather>\n<parameter=city>Tokyo</parameter>\n</function>\n</tool_call>',
    finish: 'stop',
    expected: { calls: [{ name: 'get_weather', arguments: { city: 'Tokyo' } }] },
  },
  {
    id: 'vllm/qwen3xml/parallel-adjacent',
    family: 'qwen3.5',
    source: qwenXml('test_parallel_tool_calls'),
    output:
      '<tool_call>\n<function=get_weather>\n<parameter=city>Tokyo</parameter>\n</function>\n</tool_call><tool_call>\n<function=get_time>\n<parameter=timezone>Asia/Tokyo</parameter>\n</function>\n</tool_call>',
    finish: 'stop',
    expected: { calls: [{ name: 'get_weather' }, { name: 'get_time' }] },
  },
  {
    id: 'vllm/qwen3xml/empty-arguments',
    family: 'qwen3.5',
    source: qwenXml('test_empty_arguments'),
    output: '<tool_call>\n<function=refresh>\n</function>\n</tool_call>',
    finish: 'stop',
    expected: { calls: [{ name: 'refresh', arguments: {} }] },
  },
  {
    id: 'vllm/qwen3xml/surrounding-text',
    family: 'qwen3.5',
    source: qwenXml('test_surrounding_text'),
    output: 'Let me check the weather for you.\n\n<tool_call>\n<function=get_weather>\n<parameter=city>Tokyo</parameter>\n</function>\n</tool_call>\n\nI will get that information.',
    finish: 'stop',
    expected: { calls: [{ name: 'get_weather' }] },
  },
  {
    id: 'vllm/qwen3xml/escaped-strings',
    family: 'qwen3.5',
    source: qwenXml('test_escaped_strings'),
    output:
      '<tool_call>\n<function=test_function>\n<parameter=quoted>He said "hello"</parameter>\n<parameter=path>C:\\Users\\file.txt</parameter>\n<parameter=newline>line1\nline2</parameter>\n</function>\n</tool_call>',
    finish: 'stop',
    expected: { calls: [{ name: 'test_function' }] },
  },

  // ── Qwen3-Coder XML (Qwen3CoderToolParser) ──
  {
    id: 'vllm/qwen3coder/single',
    family: 'qwen3.5',
    source: qwenCoder('test_extract_tool_calls[single_tool]'),
    output: WEATHER_XML({ city: 'Dallas', state: 'TX', unit: 'fahrenheit' }),
    finish: 'stop',
    expected: { calls: [{ name: 'get_current_weather', arguments: { city: 'Dallas', state: 'TX', unit: 'fahrenheit' } }], content: null },
  },
  {
    id: 'vllm/qwen3coder/text-before',
    family: 'qwen3.5',
    source: qwenCoder('test_extract_tool_calls[single_tool_with_content]'),
    output: `Sure! Let me check the weather for you.${WEATHER_XML({ city: 'Dallas', state: 'TX', unit: 'fahrenheit' })}`,
    finish: 'stop',
    expected: { calls: [{ name: 'get_current_weather', arguments: { city: 'Dallas', state: 'TX', unit: 'fahrenheit' } }], content: 'Sure! Let me check the weather for you.' },
  },
  {
    id: 'vllm/qwen3coder/two-calls',
    family: 'qwen3.5',
    source: qwenCoder('test_extract_tool_calls_streaming[parallel_tools]'),
    output: `${WEATHER_XML({ city: 'Dallas', state: 'TX', unit: 'fahrenheit' })}\n${WEATHER_XML({ city: 'Orlando', state: 'FL', unit: 'celsius' })}`,
    finish: 'stop',
    expected: {
      calls: [
        { name: 'get_current_weather', arguments: { city: 'Dallas', state: 'TX', unit: 'fahrenheit' } },
        { name: 'get_current_weather', arguments: { city: 'Orlando', state: 'FL', unit: 'celsius' } },
      ],
      content: '',
    },
  },
  {
    id: 'vllm/qwen3coder/typed-parameters-after-text',
    family: 'qwen3.5',
    source: qwenCoder('test_extract_tool_calls[tool_with_typed_params]'),
    output: 'Let me calculate that area for you.<tool_call>\n<function=calculate_area>\n<parameter=shape>\ncircle\n</parameter>\n<parameter=dimensions>\n{"radius": 15.5}\n</parameter>\n<parameter=precision>\n3\n</parameter>\n</function>\n</tool_call>',
    finish: 'stop',
    expected: { calls: [{ name: 'calculate_area', arguments: { shape: 'circle', dimensions: { radius: 15.5 }, precision: 3 } }], content: 'Let me calculate that area for you.' },
  },
  {
    id: 'vllm/qwen3coder/no-tool-call-wrapper',
    family: 'qwen3.5',
    source: qwenCoder('test_extract_tool_calls_fallback_no_tags'),
    output: '<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX\n</parameter>\n</function>',
    finish: 'stop',
    expected: { calls: [{ name: 'get_current_weather' }] },
  },
  {
    id: 'vllm/qwen3coder/missing-parameter-close',
    family: 'qwen3.5',
    source: qwenCoder('test_extract_tool_calls_missing_closing_parameter_tag'),
    output: 'Let me check the weather for you:\n<tool_call>\n<function=get_current_weather>\n<parameter=city>\nDallas\n<parameter=state>\nTX\n</parameter>\n<parameter=unit>\nfahrenheit\n</parameter>\n</function>\n</tool_call>',
    finish: 'stop',
    // vLLM's test asserts the content contains the text before the call.
    expected: { calls: [{ name: 'get_current_weather', arguments: { city: 'Dallas', state: 'TX', unit: 'fahrenheit' } }] },
  },
  {
    id: 'vllm/qwen3coder/missing-opening-tag',
    family: 'qwen3.5',
    source: qwenCoder('test_extract_tool_calls_streaming_missing_opening_tag'),
    output: "I'll check the weather for you.\n\n<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX\n</parameter>\n<parameter=unit>\nfahrenheit\n</parameter>\n</function>\n</tool_call>",
    finish: 'stop',
    // vLLM's test asserts the content contains "I'll check the weather for you.".
    expected: { calls: [{ name: 'get_current_weather', arguments: { city: 'Dallas', state: 'TX', unit: 'fahrenheit' } }] },
  },
  {
    id: 'vllm/qwen3coder/broken-call-then-good-one',
    family: 'qwen3.5',
    source: qwenCoder('test_none_tool_calls_filtered'),
    output:
      '<tool_call>\n<function=bad_func_no_gt\n</function>\n</tool_call>\n<tool_call>\n<function=get_current_weather>\n<parameter=city>Dallas</parameter>\n<parameter=state>TX</parameter>\n</function>\n</tool_call>',
    finish: 'stop',
    expected: { calls: [{ name: 'get_current_weather', arguments: { city: 'Dallas', state: 'TX' } }] },
  },
  {
    id: 'vllm/qwen3coder/object-parameter',
    family: 'qwen3.5',
    source: qwenCoder('test_anyof_parameter_not_double_encoded'),
    output: '<tool_call>\n<function=update_record>\n<parameter=data>{"key": "value", "count": 42}</parameter>\n</function>\n</tool_call>',
    finish: 'stop',
    expected: { calls: [{ name: 'update_record', arguments: { data: { key: 'value', count: 42 } } }] },
  },
  {
    id: 'vllm/qwen3coder/string-parameter',
    family: 'qwen3.5',
    source: qwenCoder('test_no_double_serialization_string_args'),
    output: '<tool_call>\n<function=greet>\n<parameter=message>hello world</parameter>\n</function>\n</tool_call>',
    finish: 'stop',
    expected: { calls: [{ name: 'greet', arguments: { message: 'hello world' } }] },
  },

  // ── Gemma 4 (Gemma4ToolParser) ──
  {
    id: 'vllm/gemma4/no-call',
    family: 'gemma4',
    source: gemma4('TestExtractToolCalls.test_no_tool_calls'),
    output: 'Hello, how can I help you today?',
    finish: 'stop',
    expected: { calls: [], content: 'Hello, how can I help you today?' },
  },
  {
    id: 'vllm/gemma4/single',
    family: 'gemma4',
    source: gemma4('TestExtractToolCalls.test_single_tool_call'),
    output: '<|tool_call>call:get_weather{location:<|"|>London<|"|>}<tool_call|>',
    finish: 'stop',
    expected: { calls: [{ name: 'get_weather', arguments: { location: 'London' } }] },
  },
  {
    id: 'vllm/gemma4/two-arguments',
    family: 'gemma4',
    source: gemma4('TestExtractToolCalls.test_multiple_arguments'),
    output: '<|tool_call>call:get_weather{location:<|"|>San Francisco<|"|>,unit:<|"|>celsius<|"|>}<tool_call|>',
    finish: 'stop',
    expected: { calls: [{ name: 'get_weather', arguments: { location: 'San Francisco', unit: 'celsius' } }] },
  },
  {
    id: 'vllm/gemma4/text-before',
    family: 'gemma4',
    source: gemma4('TestExtractToolCalls.test_text_before_tool_call'),
    output: 'Let me check the weather for you. <|tool_call>call:get_weather{location:<|"|>Paris<|"|>}<tool_call|>',
    finish: 'stop',
    expected: { calls: [{ name: 'get_weather' }], content: 'Let me check the weather for you.' },
  },
  {
    id: 'vllm/gemma4/two-calls',
    family: 'gemma4',
    source: gemma4('TestExtractToolCalls.test_multiple_tool_calls'),
    output: '<|tool_call>call:get_weather{location:<|"|>London<|"|>}<tool_call|><|tool_call>call:get_time{location:<|"|>London<|"|>}<tool_call|>',
    finish: 'stop',
    expected: { calls: [{ name: 'get_weather' }, { name: 'get_time' }] },
  },
  {
    id: 'vllm/gemma4/nested',
    family: 'gemma4',
    source: gemma4('TestExtractToolCalls.test_nested_arguments'),
    output: '<|tool_call>call:complex_function{nested:{inner:<|"|>value<|"|>},list:[<|"|>a<|"|>,<|"|>b<|"|>]}<tool_call|>',
    finish: 'stop',
    expected: { calls: [{ name: 'complex_function', arguments: { nested: { inner: 'value' }, list: ['a', 'b'] } }] },
  },
  {
    id: 'vllm/gemma4/number-and-boolean',
    family: 'gemma4',
    source: gemma4('TestExtractToolCalls.test_tool_call_with_number_and_boolean'),
    output: '<|tool_call>call:set_status{is_active:true,count:42,score:3.14}<tool_call|>',
    finish: 'stop',
    expected: { calls: [{ name: 'set_status', arguments: { is_active: true, count: 42, score: 3.14 } }] },
  },
  {
    id: 'vllm/gemma4/incomplete',
    family: 'gemma4',
    source: gemma4('TestExtractToolCalls.test_incomplete_tool_call'),
    output: '<|tool_call>call:get_weather{location:<|"|>London',
    finish: 'stop',
    expected: { calls: [], content: '<|tool_call>call:get_weather{location:<|"|>London' },
  },
  {
    id: 'vllm/gemma4/hyphenated-name',
    family: 'gemma4',
    source: gemma4('TestExtractToolCalls.test_hyphenated_function_name'),
    output: '<|tool_call>call:get-weather{location:<|"|>London<|"|>}<tool_call|>',
    finish: 'stop',
    expected: { calls: [{ name: 'get-weather' }] },
  },
  {
    id: 'vllm/gemma4/dotted-name',
    family: 'gemma4',
    source: gemma4('TestExtractToolCalls.test_dotted_function_name'),
    output: '<|tool_call>call:weather.get{location:<|"|>London<|"|>}<tool_call|>',
    finish: 'stop',
    expected: { calls: [{ name: 'weather.get' }] },
  },
  {
    id: 'vllm/gemma4/no-arguments',
    family: 'gemma4',
    source: gemma4('TestExtractToolCalls.test_no_arguments'),
    output: '<|tool_call>call:get_status{}<tool_call|>',
    finish: 'stop',
    expected: { calls: [{ name: 'get_status', arguments: {} }] },
  },
];
