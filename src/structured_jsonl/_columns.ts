// The fields of scoreStructuredJsonl's rows, kept by column as bytes outside the JS heap. A row's
// canonical texts are ASCII: kept as their bytes in blocks of a store shared by a file's columns,
// they cost a byte a character, and no string, object or slot of the heap, whose size the
// garbage collector lets the heap grow in proportion to. A text that is not ASCII (none the
// engines write) is kept as it is.

/** Blocks of bytes that texts are appended to. */
export class ByteStore {
  static readonly BLOCK = 1 << 20;
  readonly blocks: Uint8Array[] = [];
  #used = ByteStore.BLOCK;
  #encoder = new TextEncoder();

  /**
   * Appends an ASCII text's bytes: where they are as [block, start], or undefined for a text that
   * is not ASCII.
   */
  put(text: string): [number, number] | undefined {
    let block = this.blocks.at(-1);
    if (block === undefined || this.#used + text.length > block.length) {
      block = new Uint8Array(Math.max(ByteStore.BLOCK, text.length));
      this.blocks.push(block);
      this.#used = 0;
    }
    const { read, written } = this.#encoder.encodeInto(text, block.subarray(this.#used));
    // A character past ASCII takes more than one byte: the text does not fit in its length.
    if (read !== text.length || written !== text.length) return undefined;
    const at = this.#used;
    this.#used += written;
    return [this.blocks.length - 1, at];
  }
}

const decoder = new TextDecoder();

/** A growable Int32Array. */
class Ints {
  values = new Int32Array(1024);
  size = 0;
  push(v: number): void {
    if (this.size === this.values.length) {
      const grown = new Int32Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.size++] = v;
  }
}

/** One field of every row: its canonical text, or none where a row lacks the field. */
export class TextColumn {
  /** How many rows have the field. */
  present = 0;
  #block = new Ints();
  #start = new Ints();
  #length = new Ints();
  /** The texts that are not ASCII, by row. */
  #other = new Map<number, string>();

  constructor(readonly store: ByteStore) {}

  /** Appends the next row's text, or no text. */
  push(text: string | undefined): void {
    const row = this.#block.size;
    const at = text === undefined ? undefined : this.store.put(text);
    if (text !== undefined && at === undefined) this.#other.set(row, text);
    this.#block.push(text === undefined ? -1 : at?.[0] ?? -2);
    this.#start.push(at?.[1] ?? 0);
    this.#length.push(text?.length ?? 0);
    if (text !== undefined) this.present++;
  }

  /** Row `i`'s text, if it has the field. */
  get(i: number): string | undefined {
    const block = this.#block.values[i]!;
    if (block === -1) return undefined;
    if (block === -2) return this.#other.get(i);
    const start = this.#start.values[i]!;
    return decoder.decode(
      this.store.blocks[block]!.subarray(start, start + this.#length.values[i]!),
    );
  }

  /** Whether row `i` has the field. */
  has(i: number): boolean {
    return this.#block.values[i] !== -1;
  }
}
