// Model output as Markdown, rendered by markdown-it with raw HTML off.
//
// Model text is untrusted. With `html: false` markdown-it escapes every tag
// the model writes, so `<img onerror>` or `<script>` show as the characters
// they are. A link keeps its href only for an absolute http(s) or mailto URL
// (markdown-it's own check already refuses javascript:, vbscript:, file: and
// data:), and opens elsewhere. Images are off: a model could otherwise make
// the page fetch any URL it likes.
import MarkdownIt from 'markdown-it';
import { copyButton } from './copy-button.js';
import { h } from './dom.js';

const md = new MarkdownIt({ html: false, linkify: true, breaks: true });
md.disable('image');

const SAFE_LINK = /^(https?:\/\/|mailto:)/i;
md.validateLink = (url) => SAFE_LINK.test(url.trim());

// Model headings sit inside a chat turn: start at h3, so they never outrank the page's own.
md.core.ruler.push('demote_headings', (state) => {
  for (const token of state.tokens) {
    if (token.type === 'heading_open' || token.type === 'heading_close') token.tag = `h${Math.min(6, Number(token.tag.slice(1)) + 2)}`;
  }
});

md.renderer.rules.link_open = (tokens, i, options, _env, self) => {
  tokens[i]!.attrSet('target', '_blank');
  tokens[i]!.attrSet('rel', 'noopener noreferrer nofollow');
  return self.renderToken(tokens, i, options);
};

/** `source` as elements: Markdown structure, and every piece of the model's text as text. */
export function renderMarkdown(source: string): DocumentFragment {
  // A <template>'s content is inert: nothing in it loads or runs while it is built.
  const template = document.createElement('template');
  template.innerHTML = md.render(source);
  // Adopted into this document before the buttons go in: a clone would lose their listeners.
  const out = document.importNode(template.content, true);
  for (const pre of out.querySelectorAll('pre')) {
    const block = h('div', { class: 'code-block' });
    pre.replaceWith(block);
    block.append(pre, copyButton('Copy code', () => pre.textContent ?? ''));
  }
  // Wide tables scroll inside the answer instead of widening the page.
  for (const table of out.querySelectorAll('table')) {
    const wrap = h('div', { class: 'table-wrap' });
    table.replaceWith(wrap);
    wrap.append(table);
  }
  return out;
}
