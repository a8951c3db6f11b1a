// Checks scripted output against the request's grammar with the real xgrammar
// (@mlc-ai/web-xgrammar, the version WebLLM 0.2.86 bundles), one UTF-8 byte at
// a time over a byte vocabulary, so the first refused character is known.
// Loaded only when a fake model runs: it never ships in a WebLLM worker's path.
import type { ResponseFormat } from '../../shared/tool-protocol.js';

interface Matcher {
  acceptToken(token: number): boolean;
  dispose(): void;
}
interface Compiled {
  dispose(): void;
}
interface XGrammar {
  TokenizerInfo: { createTokenizerInfo(vocab: string[], type: string, prependSpace: boolean, size: number, stop: number[]): Promise<unknown> };
  GrammarCompiler: { createGrammarCompiler(info: unknown): Promise<{ compileGrammar(ebnf: string): Promise<Compiled>; compileStructuralTag(tag: unknown): Promise<Compiled> }> };
  GrammarMatcher: { createGrammarMatcher(compiled: Compiled): Promise<Matcher> };
}

const STOP = 256;
type Compiler = Awaited<ReturnType<XGrammar['GrammarCompiler']['createGrammarCompiler']>>;
let compiler: Promise<{ xg: XGrammar; compiler: Compiler }> | null = null;
/** Compiled grammars by their JSON, the least recently used dropped past the limit. */
const compiled = new Map<string, Promise<Compiled>>();
const COMPILED_LIMIT = 64;

function load(): Promise<{ xg: XGrammar; compiler: Compiler }> {
  compiler ??= (async () => {
    // A UMD build: bundlers hand it over as a CommonJS module, while Node runs
    // it as a script that defines the `xgrammar` global (after the unit tests'
    // setup gives it require and __filename).
    const module = (await import('@mlc-ai/web-xgrammar')) as unknown as Partial<XGrammar> & { default?: XGrammar };
    const xg = module.TokenizerInfo ? (module as XGrammar) : (module.default ?? (globalThis as { xgrammar?: XGrammar }).xgrammar!);
    const vocab = Array.from({ length: 256 }, (_, b) => `<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    vocab.push('</s>');
    const info = await xg.TokenizerInfo.createTokenizerInfo(vocab, 'byte_fallback', false, vocab.length, [STOP]);
    return { xg, compiler: await xg.GrammarCompiler.createGrammarCompiler(info) };
  })();
  return compiler;
}

/**
 * Where `text` first breaks `format`: the index of the first refused
 * character, `text.length` when the grammar cannot end there, or -1 when the
 * grammar accepts the whole text.
 */
export async function grammarBreak(format: ResponseFormat, text: string): Promise<number> {
  const { xg, compiler: c } = await load();
  const key = JSON.stringify(format);
  let grammar = compiled.get(key);
  if (grammar) compiled.delete(key);
  else grammar = format.type === 'grammar' ? c.compileGrammar(format.grammar) : c.compileStructuralTag(format.structural_tag);
  compiled.set(key, grammar);
  grammar.catch(() => compiled.delete(key));
  if (compiled.size > COMPILED_LIMIT) {
    const [oldest, dropped] = compiled.entries().next().value!;
    compiled.delete(oldest);
    void dropped.then((g) => g.dispose(), () => undefined);
  }
  const matcher = await xg.GrammarMatcher.createGrammarMatcher(await grammar);
  try {
    let index = 0;
    for (const char of text) {
      for (const byte of new TextEncoder().encode(char)) {
        if (!matcher.acceptToken(byte)) return index;
      }
      index += char.length;
    }
    return matcher.acceptToken(STOP) ? -1 : text.length;
  } finally {
    matcher.dispose();
  }
}
