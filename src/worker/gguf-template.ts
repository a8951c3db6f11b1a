// A GGUF's chat template (or the app's), made ready from the file's header,
// before the weights are downloaded: the family whose calls it teaches, and
// the renderer of its prompts. A template tabagent cannot render is refused
// here, so a file that could never answer costs no download.
import { isChatTemplateError, ModelLoadError } from '../errors/index.js';
import { templateFamily } from '../protocol/template-family.js';
import type { ToolCodec } from '../protocol/types.js';
import type { GgufSpec } from '../rpc/worker-protocol.js';
import type { ModelFamily } from '../shared/tool-protocol.js';
import { codecFor } from './codec-for.js';
import { TemplatePrompt } from './template-prompt.js';

export interface GgufTemplate {
  /** Undefined where the template writes no call markup and the app named no family: the model gets no tools. */
  family?: ModelFamily;
  codec: ToolCodec;
  prompt: TemplatePrompt;
}

/** The codec of a model with no tool-call format: only its think block is read (no call is, as no tools are offered). */
const NO_TOOLS_CODEC: ModelFamily = 'hermes';

/** ModelLoadError (not retryable: the same file fails the same way) where the template does not parse or renders no conversation. */
export function ggufTemplate(spec: Pick<GgufSpec, 'modelId' | 'family' | 'chatTemplate'>, chatTemplate: string): GgufTemplate {
  // A template that writes no call markup (Gemma 3's, SmolLM2's) needs no family for chats without tools.
  const family: ModelFamily | undefined = spec.family ?? templateFamily(chatTemplate);
  const codec = codecFor(family ?? NO_TOOLS_CODEC);
  try {
    return { ...(family ? { family } : {}), codec, prompt: new TemplatePrompt(chatTemplate, { codec }) };
  } catch (cause) {
    const whose = spec.chatTemplate === undefined ? 'the GGUF’s chat template (tokenizer.chat_template)' : 'the chatTemplate given';
    const why = isChatTemplateError(cause)
      ? `it refuses the least conversation (a system prompt and one user message): ${cause.reason}; pass a chatTemplate that renders`
      : `it is not Jinja that tabagent’s engine reads (${(cause as Error).message}); pass a chatTemplate that is`;
    throw new ModelLoadError({ modelId: spec.modelId, reason: `${whose} cannot be rendered: ${why}`, retryable: false }, { cause });
  }
}
