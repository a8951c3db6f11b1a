// Which conversation template and call family a WebLLM model runs with once
// its mlc-chat-config.json has been read. WebLLM renders every prompt with
// the config's `conv_template`, whatever tabagent's model table says (and 39
// of the table's 66 base models are inferred: docs/model-template-sources.json),
// so the config's template wins, and a difference is reported, never silent.
import type { TemplateMismatch } from '../shared/model.js';
import type { ModelFamily } from '../shared/tool-protocol.js';
import { convTemplate } from './conv-templates.js';
import { nativeFamilyOf, tablePairs, type ModelEntry } from './model-table.js';

export interface TemplateChoice {
  template: string;
  family: ModelFamily;
  mismatch?: TemplateMismatch;
}

/**
 * `entry`: the table's row for the model id; `config`: the template its
 * config names (undefined when it could not be read: the table's is kept);
 * `family`: the one the app named, which always wins.
 *
 * The family, when the config's template differs: the app's; else the one
 * family whose own format the table pairs with that template; else the
 * table's, where the table runs that family in that template (prompted
 * Hermes goes in any); else the prompted Hermes format. A template tabagent
 * does not know keeps the table's template and family, with a warning.
 */
export function chooseTemplate(modelId: string, entry: ModelEntry & { known: boolean }, config: string | undefined, family: ModelFamily | undefined): TemplateChoice {
  const table = { template: entry.template, family: entry.family };
  const asTable = { template: entry.template, family: family ?? entry.family };
  if (config === undefined || config === entry.template) return asTable;
  if (!convTemplate(config)) {
    const used = asTable;
    const message = `${modelId}'s mlc-chat-config.json names the conversation template "${config}", which tabagent does not know: WebLLM renders prompts with it, while tabagent keeps its table's "${used.template}" and the ${used.family} call format. Pass family if the model writes calls another way.`;
    return { ...used, mismatch: { config, known: false, table, used, message } };
  }
  const compatible = entry.family === 'hermes' || tablePairs(entry.family, config);
  const used = { template: config, family: family ?? nativeFamilyOf(config) ?? (compatible ? entry.family : 'hermes') };
  // A model the table does not know has no row to differ from: its config simply decides.
  if (!entry.known) return used;
  const message = `${modelId}'s mlc-chat-config.json names the conversation template "${config}", tabagent's model table "${table.template}" (${table.family} calls): using "${config}" with the ${used.family} call format.`;
  return { ...used, mismatch: { config, known: true, table, used, message } };
}
