import { it } from 'vitest';
import { toGbnf } from './gbnf.js';
it('print', () => {
  console.log(toGbnf({ type: 'structural_tag', structural_tag: { type: 'structural_tag', format: { type: 'tag', begin: '«', content: { type: 'triggered_tags', triggers: ['☎'], tags: [{ type: 'tag', begin: '☎é', content: { type: 'any_text' }, end: 'é☎' }] }, end: '»' } } }));
});
