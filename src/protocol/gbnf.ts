// tabagent's constraints as GBNF, for engines built on llama.cpp (wllama):
// the same language xgrammar 0.1.27 (WebLLM's engine) gives the structural
// tag, so a model is held to the same replies on either engine. The rules
// of xgrammar's structural tags, as its converter applies them:
// - `any_text`, `triggered_tags` and `tags_with_separator` are unlimited;
//   so is a `sequence` whose last element is, and an `or` of unlimited
//   elements. Only a sequence's last element may be unlimited, and an `or`
//   may not mix the two (both refused here as there).
// - Inside a `tag`, unlimited content runs up to the tag's `end`: text stops
//   at the first occurrence of it. At the top level it runs to the end of
//   the reply.
// - `triggered_tags` is free text in which a trigger, the moment it is
//   complete, must go on as one of its tags (see `dispatch`); `at_least_one`
//   puts one tag first, with no text before it; `stop_after_first` ends after
//   the first tag (only the enclosing tag's end may follow).
// JSON Schema content follows json-schema-gbnf.ts (whitespace there is
// bounded where xgrammar's is not: see MAX_JSON_SPACE).
import type { ResponseFormat, Tag, TagFormat } from '../shared/tool-protocol.js';
import { ANY_CHAR, Gbnf, type Range, alt, charClass, literal, seq } from './gbnf-builder.js';
import { ebnfGbnf } from './gbnf-ebnf.js';
import { regexGbnf } from './gbnf-regex.js';
import { jsonSchemaGbnf, qwenXmlParametersGbnf } from './json-schema-gbnf.js';

/** The GBNF grammar (rule `root`) that accepts what `format` accepts under xgrammar. */
export function toGbnf(format: ResponseFormat): string {
  const g = new Gbnf();
  const root = format.type === 'grammar' ? ebnfGbnf(g, format.grammar) : new TagConverter(g).format(format.structural_tag.format, null);
  return g.toString(root);
}

class TagConverter {
  constructor(private readonly g: Gbnf) {}

  /** An expression for `format`; `end`: the enclosing tag's end, which unlimited content consumes. */
  format(format: TagFormat, end: string | null): string {
    const g = this.g;
    switch (format.type) {
      case 'const_string':
        return literal(format.value);
      case 'json_schema':
        return jsonSchemaGbnf(g, format.json_schema);
      case 'qwen_xml_parameter':
        return qwenXmlParametersGbnf(g, format.json_schema);
      case 'grammar':
        return ebnfGbnf(g, format.grammar);
      case 'regex':
        return g.rule('regex', regexGbnf(g, format.pattern));
      case 'any_text':
        return end === null ? g.shared('any-text', () => `${ANY_CHAR}*`) : this.dispatch([], [end], true);
      case 'tag':
        return this.tag(format, 0);
      case 'sequence': {
        const last = format.elements.length - 1;
        format.elements.forEach((e, i) => {
          if (i < last && unlimited(e)) throw new Error('structural tag: only the last element of a sequence may be unlimited');
        });
        return seq(format.elements.map((e, i) => this.format(e, i === last ? end : null)));
      }
      case 'or':
        unlimited(format);
        return alt(format.elements.map((e) => this.format(e, end)));
      case 'triggered_tags':
        return this.triggered(format, end);
      case 'tags_with_separator':
        return this.separated(format, end);
    }
  }

  /** A tag from `begin[skip]` on: unlimited content swallows the end, limited content is followed by it. */
  private tag(tag: Tag, skip: number): string {
    const begin = literal(tag.begin.slice(skip));
    if (!unlimited(tag.content)) return seq([begin, this.format(tag.content, null), literal(tag.end)]);
    if (!tag.end) throw new Error('structural tag: a tag with unlimited content needs an end');
    return seq([begin, this.format(tag.content, tag.end)]);
  }

  private triggered(format: Extract<TagFormat, { type: 'triggered_tags' }>, end: string | null): string {
    const triggerOf = format.tags.map((tag) => {
      const matching = format.triggers.filter((t) => tag.begin.startsWith(t));
      if (matching.length !== 1) throw new Error(`structural tag: the tag "${tag.begin}" must start with exactly one trigger`);
      return matching[0]!;
    });
    const anyTag = () => this.g.rule('tag', alt(format.tags.map((tag) => this.tag(tag, 0))));
    const stops = end === null ? [] : [end];
    if (format.at_least_one && format.stop_after_first) return seq([anyTag(), ...stops.map(literal)]);
    const groups = format.triggers.map((trigger) => ({
      word: trigger,
      then: alt(format.tags.filter((_, i) => triggerOf[i] === trigger).map((tag) => this.tag(tag, trigger.length))),
    }));
    const text = this.dispatch(groups, stops, !format.stop_after_first);
    return format.at_least_one ? seq([anyTag(), text]) : text;
  }

  private separated(format: Extract<TagFormat, { type: 'tags_with_separator' }>, end: string | null): string {
    const one = this.g.rule('tag', alt(format.tags.map((tag) => this.tag(tag, 0))));
    const close = end === null ? '""' : literal(end);
    if (format.stop_after_first || (end !== null && end === format.separator)) {
      return format.at_least_one ? seq([one, close]) : alt([seq([one, close]), close]);
    }
    const more = this.g.name('more-tags');
    this.g.set(more, `${seq([literal(format.separator), one, more])} | ${close}`);
    return format.at_least_one ? seq([one, more]) : alt([seq([one, more]), close]);
  }

  /**
   * xgrammar's TagDispatch: free text, watched for `triggers` and `stops`.
   * When a trigger completes, its `then` must follow, then free text again
   * (`loop`) or the end; when a stop string completes, the text is over; with
   * no stop strings, the text may end anywhere. The watcher is xgrammar's:
   * a trie of the words over UTF-8 bytes where a byte that does not extend
   * the match restarts it at that byte alone (not Aho–Corasick: after "aa",
   * "aab" is lost). One rule per trie state; characters the words do not use
   * all lead back to the start.
   */
  private dispatch(triggers: { word: string; then: string }[], stops: string[], loop: boolean): string {
    const words = [...triggers.map((t) => t.word), ...stops];
    words.forEach((w, i) => {
      if (!w || words.some((v, j) => j !== i && v.startsWith(w))) throw new Error('structural tag: triggers and end strings must be non-empty and none a prefix of another');
    });
    const states = [...new Set(['', ...words.flatMap((w) => [...w].map((_, k) => [...w].slice(0, k).join('')))])];
    const names = states.map(() => this.g.name('text'));
    const alphabet = [...new Set(words.flatMap((w) => [...w]))];
    const step = watcher(words);
    const afterTag = loop ? names[0]! : stops.length ? alt(stops.map(literal)) : '""';
    states.forEach((state, k) => {
      const byTarget = new Map<string, number[]>();
      for (const c of alphabet) {
        const next = step(state, c);
        if (next === '') continue;
        byTarget.set(next, [...(byTarget.get(next) ?? []), c.codePointAt(0)!]);
      }
      const ranges = (cps: number[]): Range[] => cps.map((cp) => [cp, cp]);
      const options = [seq([charClass(ranges([...byTarget.values()].flat()), true), names[0]!])];
      for (const [next, cps] of byTarget) {
        const trigger = triggers.find((t) => t.word === next);
        const then = trigger ? seq([trigger.then, afterTag]) : stops.includes(next) ? '""' : names[states.indexOf(next)]!;
        options.push(seq([charClass(ranges(cps)), then]));
      }
      if (stops.length === 0) options.push('""');
      this.g.set(names[k]!, options.join(' | '));
    });
    return names[0]!;
  }
}

/** Whether xgrammar counts `format` as unlimited (open-ended); throws on an `or` that mixes both. */
function unlimited(format: TagFormat): boolean {
  switch (format.type) {
    case 'any_text':
    case 'triggered_tags':
    case 'tags_with_separator':
      return true;
    case 'sequence':
      return format.elements.length > 0 && unlimited(format.elements[format.elements.length - 1]!);
    case 'or': {
      const kinds = new Set(format.elements.map(unlimited));
      if (kinds.size > 1) throw new Error('structural tag: an `or` cannot mix unlimited and limited elements');
      return kinds.has(true);
    }
    default:
      return false;
  }
}

/**
 * The watcher's step: from matched prefix `state`, after character `c`, the
 * new matched prefix (a whole word when one completes). Runs on UTF-8 bytes
 * as xgrammar does; the result always ends on a character boundary.
 */
function watcher(words: readonly string[]): (state: string, c: string) => string {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const byteWords = words.map((w) => encoder.encode(w));
  const extends_ = (bytes: number[]) => byteWords.some((w) => bytes.length <= w.length && bytes.every((b, i) => w[i] === b));
  return (state, c) => {
    let node = [...encoder.encode(state)];
    for (const b of encoder.encode(c)) {
      if (extends_([...node, b])) node = [...node, b];
      else node = extends_([b]) ? [b] : [];
    }
    return decoder.decode(Uint8Array.from(node));
  };
}
