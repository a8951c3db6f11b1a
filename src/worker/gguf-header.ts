// What a GGUF file says of itself before its weights: the metadata at its
// head, read from a Blob or over HTTP as far as the metadata goes and no
// further, so a file tabagent cannot run is refused before its gigabytes are
// downloaded. Only the keys a load needs are kept; the rest are passed over.
// Every length and count the file declares is checked against the format's
// bounds and against what is left of the file before anything is read or
// allocated: a corrupt or hostile file fails with a ModelLoadError naming the
// field, having cost no more than the bytes it really holds.
// Sources: ggml-org/ggml docs/gguf.md (01f0d4da) for the format, and
// ggml-org/llama.cpp ggml/src/gguf.cpp (067d44f6), the reader the file must
// pass in the end, where it is stricter.
import { ModelLoadError } from '../errors/index.js';
import { ByteReader, SourceEndedError, type ByteSource } from './gguf-bytes.js';
import { ggufFacts, type GgufHeader, type GgufValue } from './gguf-facts.js';

export { blobSource, rangeSource, responseSource, SourceEndedError, streamSource, type ByteSource } from './gguf-bytes.js';
export type { GgufHeader } from './gguf-facts.js';

/** The cause of the ModelLoadError for a file that does not start with "GGUF" (a page in its place). */
export class NotGgufError extends Error {
  constructor(readonly head: Uint8Array) {
    super('not a GGUF file');
  }
}

/** Bytes of each scalar value type (gguf.md's gguf_metadata_value_type). */
const SIZES: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
const STRING = 8;
const ARRAY = 9;
/** gguf.md: a key is ASCII, at most 2^16-1 bytes. */
const MAX_KEY = 65_535;
/** gguf.cpp's GGUF_MAX_STRING_LENGTH and GGUF_MAX_ARRAY_ELEMENTS. */
const MAX_STRING = 2 ** 30;
const MAX_ITEMS = 2 ** 30;
/** A template is Jinja the worker parses and renders on every request; real ones are tens of kB. tabagent's own bound. */
const MAX_TEMPLATE = 2 ** 20;
/** The fewest bytes a pair takes (key length, a one-byte key, value type, a one-byte value), and a tensor's description (name length, dimensions, type, offset). */
const MIN_PAIR = 8 + 1 + 4 + 1;
const MIN_TENSOR = 8 + 4 + 4 + 8;
/** Model keys kept before general.architecture says which are the model's (llama.cpp's writers put it first). */
const MAX_EARLY_KEYS = 64;

/**
 * The header's facts. Throws ModelLoadError (not retryable) for a file that
 * is no GGUF, is corrupt, or claims what it cannot hold; SourceEndedError
 * where the source stopped before the file's end (a window on it, of unknown
 * or larger size): the rest of the file may still decide.
 */
export async function readGgufHeader(source: ByteSource, modelId: string): Promise<GgufHeader> {
  const refuse = (reason: string, cause?: unknown): never => {
    throw new ModelLoadError({ modelId, reason, retryable: false }, cause === undefined ? undefined : { cause });
  };
  try {
    return await readMetadata(new ByteReader(source), refuse);
  } catch (error) {
    if (error instanceof SourceEndedError && source.size !== undefined && error.position >= source.size) {
      refuse(`the file ends within its metadata (at byte ${error.position})`, error);
    }
    throw error;
  } finally {
    await source.close();
  }
}

type Refuse = (reason: string, cause?: unknown) => never;

async function readMetadata(reader: ByteReader, refuse: Refuse): Promise<GgufHeader> {
  const magic = (await reader.bytes(4)).slice();
  if (String.fromCharCode(...magic) !== 'GGUF') {
    const shown = [...magic].map((b) => b.toString(16).padStart(2, '0')).join(' ');
    refuse(`not a GGUF file (it starts with ${shown}, not "GGUF")`, new NotGgufError(magic));
  }
  const version = await reader.u32();
  // gguf.cpp: version 1 is no longer read, and none past 3 exists.
  if (version !== 2 && version !== 3) refuse(`GGUF version ${version}: llama.cpp reads versions 2 and 3`);
  countFits(reader, refuse, 'tensor_count', await reader.u64(), MIN_TENSOR);
  const pairs = countFits(reader, refuse, 'metadata_kv_count', await reader.u64(), MIN_PAIR);
  const kept = new Map<string, GgufValue>();
  let architecture: string | undefined;
  for (let i = 0; i < pairs; i++) {
    const key = await readKey(reader, refuse, i);
    const type = await reader.u32();
    if (type === ARRAY) {
      await skipArray(reader, refuse, key);
      continue;
    }
    if (type !== STRING && SIZES[type] === undefined) refuse(`${key} has value type ${type}, which GGUF does not define (0 to 12)`);
    if (!keeps(key, architecture)) {
      await skipValue(reader, refuse, key, type);
      continue;
    }
    if (kept.has(key)) refuse(`${key} is given twice`);
    if (kept.size >= MAX_EARLY_KEYS) refuse(`more than ${MAX_EARLY_KEYS} model keys before general.architecture`);
    const value = await readValue(reader, refuse, key, type);
    kept.set(key, value);
    if (key === 'general.architecture' && typeof value.value === 'string') architecture = value.value;
  }
  return ggufFacts(kept, refuse);
}

/** The keys a load needs: the architecture, the template, and the architecture's numbers (any architecture's until it is known). */
function keeps(key: string, architecture: string | undefined): boolean {
  if (key === 'general.architecture' || key === 'tokenizer.chat_template') return true;
  const match = /^([^.]+)\.(context_length|block_count|embedding_length|attention\.(head_count|head_count_kv|key_length|value_length))$/.exec(key);
  return match !== null && (architecture === undefined || match[1] === architecture);
}

/** A count of things each at least `least` bytes long, refused where the rest of the file cannot hold them. */
function countFits(reader: ByteReader, refuse: Refuse, name: string, count: bigint, least: number): number {
  const room = reader.remaining === Infinity ? Math.floor(Number.MAX_SAFE_INTEGER / least) : Math.floor(reader.remaining / least);
  if (count > BigInt(room)) refuse(`${name} is ${count}, but the ${describeRest(reader)} hold at most ${room}`);
  return Number(count);
}

function describeRest(reader: ByteReader): string {
  return reader.remaining === Infinity ? 'bytes a reader can address' : `${reader.remaining} bytes left of the file`;
}

/** A string's declared length, refused past llama.cpp's bound, past `max`, or past the file's end. */
async function stringLength(reader: ByteReader, refuse: Refuse, what: string, max = MAX_STRING): Promise<number> {
  const length = await reader.u64();
  if (length > BigInt(max)) refuse(`${what} claims a string of ${length} bytes, past the ${max} allowed`);
  if (reader.remaining !== Infinity && length > BigInt(reader.remaining)) refuse(`${what} claims a string of ${length} bytes, but ${reader.remaining} bytes are left of the file`);
  return Number(length);
}

async function readKey(reader: ByteReader, refuse: Refuse, index: number): Promise<string> {
  const what = `key ${index}`;
  const length = await stringLength(reader, refuse, what, MAX_KEY);
  if (length === 0) refuse(`${what} is an empty key`);
  const bytes = await reader.bytes(length);
  if (bytes.some((b) => b > 0x7f)) refuse(`${what} is not ASCII`);
  return new TextDecoder().decode(bytes);
}

async function readValue(reader: ByteReader, refuse: Refuse, key: string, type: number): Promise<GgufValue> {
  if (type === STRING) {
    const length = await stringLength(reader, refuse, key, key === 'tokenizer.chat_template' ? MAX_TEMPLATE : MAX_KEY);
    try {
      return { type, value: new TextDecoder('utf-8', { fatal: true }).decode(await reader.bytes(length)) };
    } catch (error) {
      if (error instanceof TypeError) refuse(`${key} is not UTF-8`, error);
      throw error;
    }
  }
  const view = await reader.view(SIZES[type]!);
  const value = [
    () => view.getUint8(0),
    () => view.getInt8(0),
    () => view.getUint16(0, true),
    () => view.getInt16(0, true),
    () => view.getUint32(0, true),
    () => view.getInt32(0, true),
    () => view.getFloat32(0, true),
    () => view.getUint8(0) !== 0,
    undefined,
    undefined,
    () => view.getBigUint64(0, true),
    () => view.getBigInt64(0, true),
    () => view.getFloat64(0, true),
  ][type]!();
  return { type, value };
}

async function skipValue(reader: ByteReader, refuse: Refuse, key: string, type: number): Promise<void> {
  await reader.skip(type === STRING ? await stringLength(reader, refuse, key) : SIZES[type]!);
}

async function skipArray(reader: ByteReader, refuse: Refuse, key: string): Promise<void> {
  const type = await reader.u32();
  // gguf.md allows arrays of arrays; llama.cpp's reader refuses them, and the file must pass it.
  if (type === ARRAY) refuse(`${key} is an array of arrays: nested arrays are refused by llama.cpp`);
  const size = type === STRING ? 8 : SIZES[type];
  if (size === undefined) refuse(`${key} is an array of value type ${type}, which GGUF does not define (0 to 12)`);
  const count = await reader.u64();
  if (count > BigInt(MAX_ITEMS)) refuse(`${key} claims ${count} items, past the ${MAX_ITEMS} llama.cpp reads`);
  countFits(reader, refuse, `${key}'s item count`, count, size!);
  if (type !== STRING) return reader.skip(Number(count) * size!);
  for (let i = 0; i < count; i++) await reader.skip(await stringLength(reader, refuse, `${key}[${i}]`));
}
