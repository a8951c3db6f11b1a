// What tabagent reads of a model's mlc-chat-config.json, as WebLLM 0.2.86
// keeps it after a load (its own copy, with the model record's overrides
// applied). `conv_template` is the template WebLLM renders every prompt with:
// mlc-llm writes the whole template with its `name`
// (Conversation.to_json_dict); older configs give the name alone.

/** The name of the conversation template a chat config names, or undefined when it names none. */
export function configTemplateName(config: unknown): string | undefined {
  const template = (config as { conv_template?: unknown } | null | undefined)?.conv_template;
  if (typeof template === 'string') return template || undefined;
  const name = (template as { name?: unknown } | null | undefined)?.name;
  return typeof name === 'string' && name ? name : undefined;
}
