// A family's codec, or InvalidOptionsError for a family tabagent does not know (an app's `family` is not checked before the worker).
import { InvalidOptionsError } from '../errors/index.js';
import { codecs } from '../protocol/codecs.js';
import type { ToolCodec } from '../protocol/types.js';
import type { ModelFamily } from '../shared/tool-protocol.js';

export function codecFor(family: ModelFamily): ToolCodec {
  const codec = codecs[family];
  if (!codec) throw new InvalidOptionsError('family', `unknown model family ${JSON.stringify(family)}`);
  return codec;
}
