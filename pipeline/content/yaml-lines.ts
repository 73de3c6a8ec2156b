/** Where a value sits in a YAML document: the line an error message should point at. */
import { isMap, isPair, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';

export type Path = ReadonlyArray<string | number>;

/**
 * The 1-based line of the node at `path` in `doc` (a key's line for a map entry), or of the
 * deepest ancestor that exists when the path goes further than the document (a missing field
 * points at its parent). `lineOffset` is added, for YAML embedded in a larger file.
 */
export function lineOf(doc: Document, lc: LineCounter, path: Path, lineOffset = 0): number {
  let node: unknown = doc.contents;
  let pos = rangeStart(node) ?? 0;
  for (const key of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(key));
      if (!pair) break;
      pos = rangeStart(pair.key) ?? pos;
      node = pair.value;
    } else if (isSeq(node) && typeof key === 'number') {
      const item = node.items[key];
      if (item === undefined) break;
      pos = rangeStart(item) ?? pos;
      node = item;
    } else {
      break;
    }
  }
  return lc.linePos(pos).line + lineOffset;
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return range ? range[0] : undefined;
}

/** 'status_history[2].status' from ['status_history', 2, 'status']. */
export function pathToString(path: Path): string {
  let s = '';
  for (const k of path) {
    if (typeof k === 'number') s += `[${k}]`;
    else s += s ? `.${k}` : k;
  }
  return s;
}
