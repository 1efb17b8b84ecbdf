// Python reprs of the float lexemes float.ts cannot format itself, supplied by
// the JS glue (the scoring kernel only; the batch engine never lays a table
// out, so it leaves such floats marked).
//
// A lexeme met for the first time is added as pending and written marked;
// the glue formats the pending lexemes after the call and the kernel parses
// the texts that met them again. Lexemes longer than MAX_LEXEME, or met once
// the table is full, are never added: their texts stay with the glue.
//
// Layout (at `floatTable`): SLOTS u32 slots (an entry address, 0 when empty),
// PENDING_MAX u32 entry addresses, then the arena of entries:
//   u32 lexeme length, u32 repr length (NOT_YET, or UNFORMATTABLE), the
//   lexeme, REPR_ROOM bytes for the repr; padded to 4.

import { hashBytes } from "./intern";
import { outCopy } from "./memory";
import { bytesEqual } from "./bytes";

const SLOTS: u32 = 1 << 17;
const PENDING_MAX: u32 = 1 << 14;
const ARENA_BYTES: usize = 8 << 20;
const MAX_LEXEME: usize = 4096;
const REPR_ROOM: usize = 32;
const NOT_YET: u32 = 0xffff_ffff;

/** The table's address, or 0 when there is none. */
export let floatTable: usize = 0;
/** Lexemes added and not yet formatted. */
export let pendingCount: u32 = 0;
let entries: u32 = 0;
let arena: usize = 0;
let arenaUsed: usize = 0;

/** Bytes the table takes. */
export const FLOAT_TABLE_BYTES: usize = ((<usize> SLOTS + <usize> PENDING_MAX) << 2) +
  ARENA_BYTES;

/** Lays an empty table out at `at` (FLOAT_TABLE_BYTES of addressable memory). */
export function floatTableInit(at: usize): void {
  floatTable = at;
  memory.fill(at, 0, <usize> SLOTS << 2);
  arena = at + ((<usize> SLOTS + <usize> PENDING_MAX) << 2);
  arenaUsed = 0;
  pendingCount = 0;
  entries = 0;
}

/** The pending entries' addresses. */
export function pendingList(): usize {
  return floatTable + (<usize> SLOTS << 2);
}

/** Forgets the pending list (the glue has filled or refused every entry). */
export function pendingClear(): void {
  pendingCount = 0;
}

/**
 * Writes the repr of the lexeme `[s, end)` when the table knows it; false
 * otherwise (the caller writes it marked), adding it as pending if it can.
 */
export function floatLookup(s: usize, end: usize): bool {
  const n = end - s;
  if (n > MAX_LEXEME) return false;
  const mask = SLOTS - 1;
  let slot = hashBytes(s, n, 0xf1) & mask;
  while (true) {
    const at = floatTable + (<usize> slot << 2);
    const e = <usize> load<u32>(at);
    if (e == 0) {
      if (entries >= SLOTS >> 1 || pendingCount >= PENDING_MAX) return false;
      const size = (8 + n + REPR_ROOM + 3) & ~(<usize> 3);
      if (arenaUsed + size > ARENA_BYTES) return false;
      const entry = arena + arenaUsed;
      arenaUsed += size;
      store<u32>(entry, <u32> n);
      store<u32>(entry, NOT_YET, 4);
      memory.copy(entry + 8, s, n);
      store<u32>(at, <u32> entry);
      store<u32>(pendingList() + (<usize> pendingCount << 2), <u32> entry);
      pendingCount++;
      entries++;
      return false;
    }
    if (<usize> load<u32>(e) == n && bytesEqual(e + 8, s, n)) {
      const r = load<u32>(e, 4);
      if (r > <u32> REPR_ROOM) return false; // pending, or not formattable here
      outCopy(e + 8 + n, <usize> r);
      return true;
    }
    slot = (slot + 1) & mask;
  }
}
