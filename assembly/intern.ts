// Interned path nodes, for one batch.
//
// A path node is a path prefix: the root (node 0, the empty path) or a parent
// node plus one segment, a key (the output range of its canonical string
// literal) or an array index. The texts of a batch mostly share one node per
// distinct prefix (see below), so the JS glue builds each distinct path once.
// Nodes live in R_NODES, NODE_SIZE bytes each:
//   parent, a, b, hash, leaf, tabled
// where (a, b) is an output range, or (INDEX_SEGMENT, index); a parent's id is
// always smaller than its children's; `leaf` is 0, or 1 + the node's leaf id
// once a pair ended there (see flatten.ts); `tabled` is 1 when the node is in
// the node table.
//
// Nodes have an open-addressing table (linear probing) in its own region; a
// slot holds a node id (0 is empty: the root is never looked up).
//
// Within one document, every path prefix is interned at most once (keys are
// unique and indices increase, and flatten.ts reuses the nodes of the prefix
// a pair shares with the previous one), so a lookup can only find a node
// made for an earlier document. The children of a node made for the current
// document are therefore new: they are appended without a lookup, and left
// out of the table (a later document makes its own, and those go in, as
// their parent is then older). One large document thus costs no lookups
// below its top level, and a batch of similar documents shares its nodes
// from the second or third document on.

import { INDEX_SEGMENT, NODE_WORDS } from "./abi_engine";
import {
  outBase,
  R_NODE_TABLE,
  R_NODES,
  regionCap,
  reserve,
} from "./memory";
import { bytesEqual } from "./bytes";

/** Bytes per node (NODE_WORDS u32, abi_engine.ts). */
export const NODE_SIZE: usize = <usize> NODE_WORDS << 2;
/** Marks an array-index segment in a node's `a` word. */
export { INDEX_SEGMENT } from "./abi_engine";

const MIN_SLOTS: u32 = 256;

/** Nodes in R_NODES, the root included. */
export let nodeCount: u32 = 0;
// The first node made for the current document.
let documentNodes: u32 = 1;
/** Base address of R_NODES (it moves as it grows). */
export let nodes: usize = 0;
let nodesCap: usize = 0;
// The tables: base address and slot mask (slots - 1).
let nodeTable: usize = 0;
let nodeMask: u32 = 0;
let nodesTabled: u32 = 0;

function mix(h: u64): u32 {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccd;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53;
  h ^= h >> 33;
  return <u32> h;
}

// A hash of the `n` bytes at `p`, seeded with `seed`.
export function hashBytes(p: usize, n: usize, seed: u32): u32 {
  let h: u64 = (<u64> seed << 32) ^ (<u64> n * 0x9e3779b97f4a7c15);
  while (n >= 8) {
    h = (h ^ load<u64>(p)) * 0x9e3779b97f4a7c15;
    h ^= h >> 29;
    p += 8;
    n -= 8;
  }
  let t: u64 = 0;
  let shift: u64 = 0;
  while (n > 0) {
    t |= <u64> load<u8>(p) << shift;
    shift += 8;
    p++;
    n--;
  }
  return mix(h ^ t);
}

// An empty table of MIN_SLOTS slots in region `r`.
function emptyTable(r: i32): usize {
  const bytes = <usize> MIN_SLOTS << 2;
  const table = reserve(r, 0, bytes);
  memory.fill(table, 0, bytes);
  return table;
}

/** Empties the nodes, keeping only the root. */
export function internReset(): void {
  nodes = reserve(R_NODES, 0, NODE_SIZE << 8);
  nodesCap = regionCap(R_NODES);
  memory.fill(nodes, 0, NODE_SIZE);
  nodeCount = 1;
  documentNodes = 1;
  nodeTable = emptyTable(R_NODE_TABLE);
  nodeMask = MIN_SLOTS - 1;
  nodesTabled = 0;
}

// Whether the record at `e` holds the `n` output bytes at address `p` in its
// words at `e + off` and `e + off + 4`.
function sameRange(e: usize, off: usize, p: usize, n: usize): bool {
  const a = load<u32>(e + off);
  return a != INDEX_SEGMENT && <usize> (load<u32>(e + off, 4) - a) == n &&
    bytesEqual(outBase + <usize> a, p, n);
}

// Doubles the node table and reinserts every node it held.
function growNodeTable(): void {
  const slots = (nodeMask + 1) << 1;
  nodeTable = reserve(R_NODE_TABLE, 0, <usize> slots << 2);
  memory.fill(nodeTable, 0, <usize> slots << 2);
  nodeMask = slots - 1;
  for (let id: u32 = 1; id < nodeCount; id++) {
    const e = nodes + <usize> id * NODE_SIZE;
    if (load<u32>(e, 20) == 0) continue;
    let slot = load<u32>(e, 12) & nodeMask;
    while (load<u32>(nodeTable + (<usize> slot << 2)) != 0) slot = (slot + 1) & nodeMask;
    store<u32>(nodeTable + (<usize> slot << 2), id);
  }
}

/** Starts the nodes of a new document. */
export function internDocument(): void {
  documentNodes = nodeCount;
}

// Appends a node and returns its id.
function appendNode(parent: u32, a: u32, b: u32, hash: u32): u32 {
  const id = nodeCount;
  const off = <usize> id * NODE_SIZE;
  if (off + NODE_SIZE > nodesCap) {
    nodes = reserve(R_NODES, off, off + NODE_SIZE);
    nodesCap = regionCap(R_NODES);
  }
  const e = nodes + off;
  store<u32>(e, parent);
  store<u32>(e, a, 4);
  store<u32>(e, b, 8);
  store<u32>(e, hash, 12);
  store<u32>(e, 0, 16);
  store<u32>(e, 0, 20);
  nodeCount = id + 1;
  return id;
}

// Appends a node, puts it in `slot` of the node table, and returns its id.
function addNode(slot: u32, parent: u32, a: u32, b: u32, hash: u32): u32 {
  const id = appendNode(parent, a, b, hash);
  store<u32>(nodes + <usize> id * NODE_SIZE, 1, 20);
  store<u32>(nodeTable + (<usize> slot << 2), id);
  if (++nodesTabled << 1 > nodeMask) growNodeTable();
  return id;
}

/** The node of the key whose canonical literal is at output range `[a, b)`, under `parent`. */
export function internKey(parent: u32, a: u32, b: u32): u32 {
  if (parent >= documentNodes) return appendNode(parent, a, b, 0);
  const n = <usize> (b - a);
  const p = outBase + <usize> a;
  const hash = hashBytes(p, n, parent);
  let slot = hash & nodeMask;
  while (true) {
    const id = load<u32>(nodeTable + (<usize> slot << 2));
    if (id == 0) return addNode(slot, parent, a, b, hash);
    const e = nodes + <usize> id * NODE_SIZE;
    if (load<u32>(e, 12) == hash && load<u32>(e) == parent && sameRange(e, 4, p, n)) return id;
    slot = (slot + 1) & nodeMask;
  }
}

/** The node of array index `index` under `parent`. */
export function internIndex(parent: u32, index: u32): u32 {
  if (parent >= documentNodes) return appendNode(parent, INDEX_SEGMENT, index, 0);
  const hash = mix(((<u64> parent << 32) | <u64> index) ^ 0x5bd1e9955bd1e995);
  let slot = hash & nodeMask;
  while (true) {
    const id = load<u32>(nodeTable + (<usize> slot << 2));
    if (id == 0) return addNode(slot, parent, INDEX_SEGMENT, index, hash);
    const e = nodes + <usize> id * NODE_SIZE;
    if (
      load<u32>(e, 12) == hash && load<u32>(e) == parent && load<u32>(e, 4) == INDEX_SEGMENT &&
      load<u32>(e, 8) == index
    ) {
      return id;
    }
    slot = (slot + 1) & nodeMask;
  }
}

/** The leaf word of node `id`: 0, or 1 + its leaf id. */
export function nodeLeaf(id: u32): u32 {
  return load<u32>(nodes + <usize> id * NODE_SIZE, 16);
}

/** Sets the leaf word of node `id`. */
export function setNodeLeaf(id: u32, leaf: u32): void {
  store<u32>(nodes + <usize> id * NODE_SIZE, leaf, 16);
}

