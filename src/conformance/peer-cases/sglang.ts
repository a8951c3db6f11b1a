// SGLang's function call parser tests (test/srt/test_function_call_parser.py),
// restated as data: detect_and_parse (whole output) and the streaming tests
// whose chunks add up to one output.
import type { PeerCase, PeerSource } from './types.js';

const source = (test: string): PeerSource => ({
  repo: 'sgl-project/sglang',
  path: 'test/srt/test_function_call_parser.py',
  commit: '03400a9e4d955eff2606cfe621c83a710c16cc97',
  test,
});

const DALLAS = '<tool_call>\n<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX\n</parameter>\n<parameter=unit>\nfahrenheit\n</parameter>\n</function>\n</tool_call>';
const DALLAS_CALL = { name: 'get_current_weather', arguments: { city: 'Dallas', state: 'TX', unit: 'fahrenheit' } };

export const sglangCases: PeerCase[] = [
  // ── PythonicDetector (Llama 3.2's pythonic lists) ──
  {
    id: 'sglang/pythonic/no-brackets',
    family: 'llama',
    source: source('TestPythonicDetector.test_parse_streaming_no_brackets'),
    output: 'This is just normal text without any tool calls.',
    finish: 'stop',
    expected: { calls: [], content: 'This is just normal text without any tool calls.' },
  },
  {
    id: 'sglang/pythonic/after-text',
    family: 'llama',
    source: source('TestPythonicDetector.test_parse_streaming_complete_tool_call'),
    output: "Here's a tool call: [get_weather(location='New York', unit='celsius')]",
    finish: 'stop',
    expected: { calls: [{ name: 'get_weather', arguments: { location: 'New York', unit: 'celsius' } }], content: "Here's a tool call: " },
  },
  {
    id: 'sglang/pythonic/text-before',
    family: 'llama',
    source: source('TestPythonicDetector.test_parse_streaming_text_before_tool_call'),
    output: "This is some text before [get_weather(location='London')]",
    finish: 'stop',
    expected: { calls: [{ name: 'get_weather', arguments: { location: 'London' } }], content: 'This is some text before ' },
  },
  {
    id: 'sglang/pythonic/whole-reply',
    family: 'llama',
    source: source('TestPythonicDetector.test_parse_streaming_bracket_without_text_before'),
    output: "[search(query='python programming')]",
    finish: 'stop',
    expected: { calls: [{ name: 'search', arguments: { query: 'python programming' } }], content: '' },
  },
  {
    id: 'sglang/pythonic/text-after',
    family: 'llama',
    source: source('TestPythonicDetector.test_parse_streaming_text_after_tool_call'),
    output: "[get_weather(location='Tokyo')] Here's the forecast:",
    finish: 'stop',
    expected: { calls: [{ name: 'get_weather', arguments: { location: 'Tokyo' } }], content: " Here's the forecast:" },
  },
  {
    id: 'sglang/pythonic/two-lists-with-text-between',
    family: 'llama',
    source: source('TestPythonicDetector.test_parse_streaming_multiple_tool_calls'),
    output: "[get_weather(location='Berlin')] and [search(query='restaurants')]",
    finish: 'stop',
    expected: { calls: [{ name: 'get_weather', arguments: { location: 'Berlin' } }, { name: 'search', arguments: { query: 'restaurants' } }], content: ' and ' },
  },
  {
    id: 'sglang/pythonic/nested-list-argument',
    family: 'llama',
    source: source('TestPythonicDetector.test_parse_streaming_nested_brackets'),
    output: "[get_weather(location='New York', unit='celsius', data=[1, 2, 3])]",
    finish: 'stop',
    expected: { calls: [{ name: 'get_weather', arguments: { location: 'New York', unit: 'celsius', data: [1, 2, 3] } }], content: '' },
  },
  {
    id: 'sglang/pythonic/nested-dict-argument',
    family: 'llama',
    source: source('TestPythonicDetector.test_parse_streaming_nested_brackets_dict'),
    output: "[search(query='test', config={'options': [1, 2], 'nested': {'key': 'value'}})]",
    finish: 'stop',
    expected: { calls: [{ name: 'search', arguments: { query: 'test', config: { options: [1, 2], nested: { key: 'value' } } } }], content: '' },
  },
  {
    id: 'sglang/pythonic/two-calls-nested',
    family: 'llama',
    source: source('TestPythonicDetector.test_parse_streaming_multiple_tools_with_nested_brackets'),
    output: "[get_weather(location='Paris', data=[10, 20]), search(query='test', filters=['a', 'b'])]",
    finish: 'stop',
    expected: {
      calls: [
        { name: 'get_weather', arguments: { location: 'Paris', data: [10, 20] } },
        { name: 'search', arguments: { query: 'test', filters: ['a', 'b'] } },
      ],
      content: '',
    },
  },

  // ── MistralDetector (Mistral 7B v0.3) ──
  {
    id: 'sglang/mistral/brackets-in-argument',
    family: 'mistral',
    source: source('TestMistralDetector.test_detect_and_parse_with_nested_brackets_in_content'),
    output:
      '[TOOL_CALLS] [{"name":"make_next_step_decision", "arguments":{"decision":"","content":"```\\nTOOL: Access a weather API or service\\nOBSERVATION: Retrieve the current weather data for the top 5 populated cities in the US\\nANSWER: The weather in the top 5 populated cities in the US is as follows: [City Name] - [Weather Conditions] - [Temperature]\\n```"}}]',
    finish: 'stop',
    expected: {
      calls: [
        {
          name: 'make_next_step_decision',
          arguments: {
            decision: '',
            content:
              '```\nTOOL: Access a weather API or service\nOBSERVATION: Retrieve the current weather data for the top 5 populated cities in the US\nANSWER: The weather in the top 5 populated cities in the US is as follows: [City Name] - [Weather Conditions] - [Temperature]\n```',
          },
        },
      ],
      content: '',
    },
  },
  {
    id: 'sglang/mistral/simple',
    family: 'mistral',
    source: source('TestMistralDetector.test_detect_and_parse_simple_case'),
    output: '[TOOL_CALLS] [{"name":"make_next_step_decision", "arguments":{"decision":"TOOL", "content":"Use weather API"}}]',
    finish: 'stop',
    expected: { calls: [{ name: 'make_next_step_decision', arguments: { decision: 'TOOL', content: 'Use weather API' } }] },
  },
  {
    id: 'sglang/mistral/no-call',
    family: 'mistral',
    source: source('TestMistralDetector.test_detect_and_parse_no_tool_calls'),
    output: 'This is just normal text without any tool calls.',
    finish: 'stop',
    expected: { calls: [], content: 'This is just normal text without any tool calls.' },
  },
  {
    id: 'sglang/mistral/text-before',
    family: 'mistral',
    source: source('TestMistralDetector.test_detect_and_parse_with_text_before_tool_call'),
    output: 'Here is some text before the tool call: [TOOL_CALLS] [{"name":"make_next_step_decision", "arguments":{"decision":"ANSWER", "content":"The answer is 42"}}]',
    finish: 'stop',
    expected: { calls: [{ name: 'make_next_step_decision', arguments: { decision: 'ANSWER', content: 'The answer is 42' } }], content: 'Here is some text before the tool call:' },
  },

  // ── Llama32Detector (Llama 3.2 JSON) ──
  {
    id: 'sglang/llama32/single',
    family: 'llama',
    source: source('TestLlama32Detector.test_single_json'),
    output: '{"name": "get_weather", "parameters": {"city": "Paris"}}',
    finish: 'stop',
    expected: { calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }], content: '' },
  },
  {
    id: 'sglang/llama32/python-tag-semicolon',
    family: 'llama',
    source: source('TestLlama32Detector.test_multiple_json_with_separator'),
    output: '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}};{"name": "get_tourist_attractions", "parameters": {"city": "Paris"}}',
    finish: 'stop',
    expected: { calls: [{ name: 'get_weather' }, { name: 'get_tourist_attractions' }], content: '' },
  },
  {
    id: 'sglang/llama32/python-tag-repeated',
    family: 'llama',
    source: source('TestLlama32Detector.test_multiple_json_with_separator_customized'),
    output: '<|python_tag|>{"name": "get_weather", "parameters": {}}<|python_tag|>{"name": "get_tourist_attractions", "parameters": {}}',
    finish: 'stop',
    expected: { calls: [{ name: 'get_weather' }, { name: 'get_tourist_attractions' }], content: '' },
  },
  {
    id: 'sglang/llama32/trailing-text',
    family: 'llama',
    source: source('TestLlama32Detector.test_json_with_trailing_text'),
    output: '{"name": "get_weather", "parameters": {}} Some follow-up text',
    finish: 'stop',
    // SGLang's test asserts the content contains "follow-up".
    expected: { calls: [{ name: 'get_weather' }] },
  },
  {
    id: 'sglang/llama32/invalid-then-valid',
    family: 'llama',
    source: source('TestLlama32Detector.test_invalid_then_valid_json'),
    output: '{"name": "get_weather", "parameters": {{"name": "get_weather", "parameters": {}}',
    finish: 'stop',
    expected: { calls: [{ name: 'get_weather' }] },
  },
  {
    id: 'sglang/llama32/plain-text',
    family: 'llama',
    source: source('TestLlama32Detector.test_plain_text_only'),
    output: 'This is just plain explanation text.',
    finish: 'stop',
    expected: { calls: [], content: 'This is just plain explanation text.' },
  },
  {
    id: 'sglang/llama32/python-tag-after-text',
    family: 'llama',
    source: source('TestLlama32Detector.test_with_python_tag_prefix'),
    output: 'Some intro. <|python_tag|>{"name": "get_weather", "parameters": {}}',
    finish: 'stop',
    // SGLang's test asserts the content starts with "Some intro.".
    expected: { calls: [{ name: 'get_weather' }] },
  },

  // ── Qwen3CoderDetector (Qwen3-Coder / Qwen3.5 XML) ──
  {
    id: 'sglang/qwen3coder/no-call',
    family: 'qwen3.5',
    source: source('TestQwen3CoderDetector.test_detect_and_parse_no_tools'),
    output: 'This is a test response without any tool calls',
    finish: 'stop',
    expected: { calls: [], content: 'This is a test response without any tool calls' },
  },
  {
    id: 'sglang/qwen3coder/single',
    family: 'qwen3.5',
    source: source('TestQwen3CoderDetector.test_detect_and_parse_single_tool'),
    output: DALLAS,
    finish: 'stop',
    expected: { calls: [DALLAS_CALL], content: '' },
  },
  {
    id: 'sglang/qwen3coder/text-before',
    family: 'qwen3.5',
    source: source('TestQwen3CoderDetector.test_detect_and_parse_with_content'),
    output: `Sure! Let me check the weather for you.${DALLAS}`,
    finish: 'stop',
    expected: { calls: [{ name: 'get_current_weather' }], content: 'Sure! Let me check the weather for you.' },
  },
  {
    id: 'sglang/qwen3coder/multiline-json-parameter',
    family: 'qwen3.5',
    source: source('TestQwen3CoderDetector.test_detect_and_parse_multiline_param'),
    output:
      '<tool_call>\n<function=calculate_area>\n<parameter=shape>\nrectangle\n</parameter>\n<parameter=dimensions>\n{"width": 10,\n "height": 20}\n</parameter>\n<parameter=precision>\n2\n</parameter>\n</function>\n</tool_call>',
    finish: 'stop',
    expected: { calls: [{ name: 'calculate_area', arguments: { shape: 'rectangle', dimensions: { width: 10, height: 20 }, precision: 2 } }] },
  },
  {
    id: 'sglang/qwen3coder/two-calls',
    family: 'qwen3.5',
    source: source('TestQwen3CoderDetector.test_detect_and_parse_parallel_tools'),
    output: `${DALLAS}\n${DALLAS.replace('Dallas', 'Orlando').replace('TX', 'FL')}`,
    finish: 'stop',
    expected: {
      calls: [
        { name: 'get_current_weather', arguments: { city: 'Dallas', state: 'TX', unit: 'fahrenheit' } },
        { name: 'get_current_weather', arguments: { city: 'Orlando', state: 'FL', unit: 'fahrenheit' } },
      ],
      content: '\n',
    },
  },
  {
    id: 'sglang/qwen3coder/streamed-text-before',
    family: 'qwen3.5',
    source: source('TestQwen3CoderDetector.test_parse_streaming_simple'),
    output: 'Sure! Let me check the weather.<tool_call>\n<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX\n</parameter>\n</function>\n</tool_call>',
    finish: 'stop',
    expected: { calls: [{ name: 'get_current_weather', arguments: { city: 'Dallas', state: 'TX' } }], content: 'Sure! Let me check the weather.' },
  },
  {
    id: 'sglang/qwen3coder/streamed-cut-in-parameter',
    family: 'qwen3.5',
    source: source('TestQwen3CoderDetector.test_parse_streaming_incomplete'),
    output: '<tool_call>\n<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX',
    finish: 'length',
    // SGLang has streamed the name and a part of the arguments ({"city": "Dallas"…) when the text stops.
    expected: { calls: [{ name: 'get_current_weather', arguments: null }] },
  },
  {
    id: 'sglang/qwen3coder/no-parameters',
    family: 'qwen3.5',
    source: source('TestQwen3CoderDetector.test_edge_case_no_parameters'),
    output: '<tool_call>\n<function=get_current_weather>\n</function>\n</tool_call>',
    finish: 'stop',
    expected: { calls: [{ name: 'get_current_weather', arguments: {} }] },
  },
  {
    id: 'sglang/qwen3coder/special-characters',
    family: 'qwen3.5',
    source: source('TestQwen3CoderDetector.test_edge_case_special_chars_in_value'),
    output: '<tool_call>\n<function=get_current_weather>\n<parameter=city>\nDallas->TX\n</parameter>\n</function>\n</tool_call>',
    finish: 'stop',
    expected: { calls: [{ name: 'get_current_weather', arguments: { city: 'Dallas->TX' } }] },
  },
  {
    id: 'sglang/qwen3coder/typed-values',
    family: 'qwen3.5',
    source: source('TestQwen3CoderDetector.test_extract_tool_calls_type_conversion'),
    output:
      '<tool_call>\n<function=test_types>\n<parameter=int_param>\n42\n</parameter>\n<parameter=float_param>\n3.14\n</parameter>\n<parameter=bool_param>\ntrue\n</parameter>\n<parameter=str_param>\nhello world\n</parameter>\n<parameter=obj_param>\n{"key": "value"}\n</parameter>\n</function>\n</tool_call>',
    finish: 'stop',
    expected: { calls: [{ name: 'test_types', arguments: { int_param: 42, float_param: 3.14, bool_param: true, str_param: 'hello world', obj_param: { key: 'value' } } }] },
  },
];
