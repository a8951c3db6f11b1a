/** Where the generated module is written. */
export declare const MODULE_PATH: string;

/** The text src/protocol/control-tokens.ts must have: the control-token regex, as a literal, that the generator makes of the installed tokenizers and templates. */
export declare function controlTokensModule(): string;

/** The tokens (literals not covered by a pattern), the patterns, and how many tokens each source gave. */
export declare function controlTokens(): {
  tokens: string[];
  patterns: string[];
  summary: { name: string; tokens: number; patterns: number; source: string }[];
};
