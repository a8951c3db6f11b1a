// The two shapes of `conv_template`: mlc-llm's docs/get_started/mlc_chat_config.rst
// shows the name alone ("conv_template": "llama-2"); configs written by
// `mlc_llm gen_config` hold the whole template with its name (e.g.
// "conv_template": {"name": "chatml", "system_template": …}).
import { describe, expect, it } from 'vitest';
import { configTemplateName } from './chat-config.js';

describe('configTemplateName', () => {
  it('reads the name, given alone or with the whole template', () => {
    expect(configTemplateName({ conv_template: 'llama-2' })).toBe('llama-2');
    expect(configTemplateName({ conv_template: { name: 'chatml', system_template: '<|im_start|>system\n{system_message}<|im_end|>\n', roles: {} } })).toBe('chatml');
  });

  it('is undefined when the config names none', () => {
    for (const config of [undefined, null, {}, { conv_template: '' }, { conv_template: { system_template: '' } }, { conv_template: { name: 3 } }]) {
      expect(configTemplateName(config)).toBeUndefined();
    }
  });
});
