// The real grammar engine WebLLM 0.2.86 bundles (@mlc-ai/web-xgrammar 0.1.27),
// loaded in Node so unit tests can check that our grammars accept and refuse
// what they should. (The CommonJS globals it needs come from node-globals.ts.)
import type { ResponseFormat } from '../shared/tool-protocol.js';

interface Grammar {
  readonly __brand?: 'grammar';
}

interface XGrammar {
  Grammar: {
    fromStructuralTag(tag: unknown): Promise<Grammar>;
    fromEBNF(ebnf: string): Promise<Grammar>;
  };
  Testings: { isGrammarAcceptString(grammar: Grammar, text: string): Promise<boolean> };
}

let loaded: Promise<XGrammar> | null = null;

export function xgrammar(): Promise<XGrammar> {
  loaded ??= (async () => {
    await import('@mlc-ai/web-xgrammar');
    return (globalThis as { xgrammar?: XGrammar }).xgrammar!;
  })();
  return loaded;
}

/** Does xgrammar accept `text` under the constraint tabagent built (a structural tag or an EBNF grammar)? */
export async function grammarAccepts(format: ResponseFormat | undefined, text: string): Promise<boolean> {
  if (!format) throw new Error('no grammar was built');
  const xg = await xgrammar();
  const grammar = format.type === 'grammar' ? await xg.Grammar.fromEBNF(format.grammar) : await xg.Grammar.fromStructuralTag(format.structural_tag);
  return xg.Testings.isGrammarAcceptString(grammar, text);
}
