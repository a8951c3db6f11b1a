// Where each field of a real GGUF's metadata lies, for tests that overwrite
// one (a length, a count, a type, a value) to make the files a corrupt or
// hostile source could send. A walker of its own, simpler than the reader
// under test: it trusts the file, which the generator wrote.
// Layout: ggml-org/ggml docs/gguf.md (01f0d4da).

export type GgufFieldRole = 'version' | 'tensor-count' | 'kv-count' | 'key-length' | 'value-type' | 'array-type' | 'array-count' | 'string-length' | 'value';

export interface GgufField {
  offset: number;
  size: 1 | 2 | 4 | 8;
  role: GgufFieldRole;
  /** The key whose pair holds the field (absent for the file's header). */
  key?: string;
}

const SIZES: Record<number, 1 | 2 | 4 | 8> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
const STRING = 8;
const ARRAY = 9;

/** Every field of the metadata in file order, and where the metadata ends. */
export function ggufFields(bytes: Uint8Array): { fields: GgufField[]; end: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fields: GgufField[] = [];
  let at = 4;
  const field = (size: 1 | 2 | 4 | 8, role: GgufFieldRole, key?: string): number => {
    fields.push({ offset: at, size, role, ...(key === undefined ? {} : { key }) });
    const value = size === 8 ? Number(view.getBigUint64(at, true)) : size === 4 ? view.getUint32(at, true) : 0;
    at += size;
    return value;
  };
  const string = (role: 'key-length' | 'string-length', key?: string): string => {
    const length = field(8, role, key);
    const text = new TextDecoder().decode(bytes.subarray(at, at + length));
    at += length;
    return text;
  };
  const value = (type: number, key: string): void => {
    if (type === STRING) string('string-length', key);
    else field(SIZES[type]!, 'value', key);
  };
  field(4, 'version');
  field(8, 'tensor-count');
  const count = field(8, 'kv-count');
  for (let i = 0; i < count; i++) {
    const key = string('key-length');
    fields[fields.length - 1]!.key = key;
    const type = field(4, 'value-type', key);
    if (type !== ARRAY) {
      value(type, key);
      continue;
    }
    const itemType = field(4, 'array-type', key);
    const items = field(8, 'array-count', key);
    for (let j = 0; j < items; j++) value(itemType, key);
  }
  return { fields, end: at };
}

/**
 * The file's metadata alone, its arrays cut to their first `keep` items and
 * no tensors: a real header small enough to mutate hundreds of times.
 */
export function trimmedGguf(bytes: Uint8Array, keep: number): Uint8Array<ArrayBuffer> {
  const { fields, end } = ggufFields(bytes);
  const out: Uint8Array[] = [];
  let from = 0;
  let skipping: { key: string; left: number } | undefined;
  for (const [i, f] of fields.entries()) {
    if (f.role === 'array-count') {
      const view = new DataView(bytes.buffer, bytes.byteOffset + f.offset, 8);
      const count = Number(view.getBigUint64(0, true));
      out.push(bytes.subarray(from, f.offset));
      const kept = new Uint8Array(8);
      new DataView(kept.buffer).setBigUint64(0, BigInt(Math.min(count, keep)), true);
      out.push(kept);
      from = f.offset + 8;
      skipping = { key: f.key!, left: keep };
      continue;
    }
    if (skipping && f.key === skipping.key && (f.role === 'value' || f.role === 'string-length')) {
      if (skipping.left > 0) {
        skipping.left--;
        continue;
      }
      // The first item past those kept: cut from here to the next pair.
      out.push(bytes.subarray(from, f.offset));
      const next = fields.slice(i).find((g) => g.key !== skipping!.key);
      from = next ? next.offset : end;
      skipping = undefined;
      continue;
    }
  }
  out.push(bytes.subarray(from, end));
  const whole = concat(out);
  new DataView(whole.buffer).setBigUint64(8, 0n, true); // no tensors
  return whole;
}

/** A copy of the file with one field overwritten (a number, written little-endian in the field's size). */
export function withField(bytes: Uint8Array, field: Pick<GgufField, 'offset' | 'size'>, value: number | bigint): Uint8Array<ArrayBuffer> {
  const copy = new Uint8Array(bytes); // a copy, even of a Buffer (whose slice is a view)
  const view = new DataView(copy.buffer, field.offset, field.size);
  if (field.size === 8) view.setBigUint64(0, BigInt(value), true);
  else if (field.size === 4) view.setUint32(0, Number(value), true);
  else if (field.size === 2) view.setUint16(0, Number(value), true);
  else view.setUint8(0, Number(value));
  return copy;
}

/** The one field of `role` in the pair of `key`. */
export function fieldOf(bytes: Uint8Array, key: string, role: GgufFieldRole): GgufField {
  const found = ggufFields(bytes).fields.find((f) => f.key === key && f.role === role);
  if (!found) throw new Error(`no ${role} field for ${key}`);
  return found;
}

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}
