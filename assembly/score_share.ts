// The scoring kernel shared between two instances of the module (see score.ts):
// the second reads the later part of each file. Its entries are appended to
// the first's before it freezes; it then adopts the first's frozen state (its
// zone copied to the same addresses) and reads its part of the prompts and
// generations; the first merges the results.

import { growMemoryTo, R_EMIT, R_MET, regionBase, reserve } from "./memory";
import {
  bail,
  BAIL_DUPLICATE,
  chunkInput,
  frozen,
  K_OK,
  metCount,
  setFrozen,
  setNoteMet,
  withPrompts,
} from "./score_common";
import {
  adoptState,
  appendEntries,
  entriesTop,
  entryCount,
  entryLine,
  entryOf,
  R_GENERATION_DIGEST,
  R_PROMPT_DIGEST,
  R_RECORD,
  resultOf,
  saveState,
  STATE_GENERATION,
  STATE_PROMPT,
  STATE_WORDS,
  tablesTop,
  zone,
} from "./score_entries";

/**
 * Appends `count` entries another instance read (its zone's bytes, written by the glue at
 * kInput's address, `len` bytes): the examples that follow this instance's in the file.
 */
export function kAppendEntries(len: u32, count: u32): void {
  if (frozen) unreachable();
  appendEntries(chunkInput, <usize> len, count);
}

/** Where this instance's entries lie: kZone() to kZoneEnd() (to export them). */
export function kZone(): usize {
  return zone;
}

export function kZoneEnd(): usize {
  return frozen ? tablesTop : entriesTop;
}

/** Examples read. */
export function kEntryCount(): u32 {
  return entryCount;
}

/**
 * The frozen state, for another instance of the module to adopt: the words
 * kAdopt reads, at a static address. The other instance also needs this one's
 * memory from kZone() to kZoneEnd(), at the same addresses.
 */
export function kFrozenState(): usize {
  saveState(STATE_WORDS);
  return STATE_WORDS;
}

/** Takes over another instance's frozen state (kFrozenState), its zone already copied here. */
export function kAdopt(): void {
  adoptState(STATE_WORDS);
  setFrozen();
  setNoteMet(true); // the instance that adopts sends what it reads, a chunk at a time
}

/** Makes `[0, end)` addressable (for the glue to copy a zone in). */
export function kReserve(end: usize): void {
  growMemoryTo(<u64> end);
}

/**
 * What this chunk of prompts or generations found (after the glue scored its queue), to export:
 * for each line, in order, u32 example index, u32 state bit (STATE_PROMPT or STATE_GENERATION),
 * then for a generation its record and, with a manifest, the digest it names, and for a prompt
 * its row's digest. Another instance merges it with kMerge; its length is kChunkResultsLength's.
 */
export function kChunkResults(): usize {
  const met = regionBase(R_MET);
  const n = metCount;
  const out = reserve(R_EMIT, 0, <usize> n * (8 + 16 + 32));
  let o = out;
  for (let k: u32 = 0; k < n; k++) {
    const m = load<u32>(met + (<usize> k << 2));
    const r = resultOf(entryOf(m >> 1));
    store<u32>(o, m >> 1);
    if ((m & 1) != 0) {
      store<u32>(o, STATE_GENERATION, 4);
      memory.copy(o + 8, r + R_RECORD, 16);
      o += 24;
      if (withPrompts) {
        memory.copy(o, r + R_GENERATION_DIGEST, 32);
        o += 32;
      }
    } else {
      store<u32>(o, STATE_PROMPT, 4);
      memory.copy(o + 8, r + R_PROMPT_DIGEST, 32);
      o += 40;
    }
  }
  chunkResultsLength = o - out;
  return out;
}

let chunkResultsLength: usize = 0;

export function kChunkResultsLength(): usize {
  return chunkResultsLength;
}

/**
 * Merges another instance's results (`len` bytes, written at kMergeInput's
 * address): its prompts, generations and records. An id both read is a
 * duplicate.
 */
export function kMerge(len: u32): i32 {
  let t = chunkInput;
  const end = t + <usize> len;
  while (t < end) {
    const i = load<u32>(t);
    const theirs = load<u32>(t, 4);
    t += 8;
    if (i >= entryCount) unreachable();
    const e = entryOf(i);
    const r = resultOf(e);
    const ours = load<u32>(r);
    if ((ours & theirs) != 0) return bail(BAIL_DUPLICATE, entryLine(e));
    store<u32>(r, ours | theirs);
    if ((theirs & STATE_GENERATION) != 0) {
      memory.copy(r + R_RECORD, t, 16);
      t += 16;
      if (withPrompts) {
        memory.copy(r + R_GENERATION_DIGEST, t, 32);
        t += 32;
      }
    }
    if ((theirs & STATE_PROMPT) != 0) {
      memory.copy(r + R_PROMPT_DIGEST, t, 32);
      t += 32;
    }
  }
  return K_OK;
}
