// Reads a ShareGPT JSON file without building one giant string: ShareGPT_V3 is ~670 MB, above
// V8's string limit, so the top-level array is split into elements at the byte level and each
// element is parsed on its own. Only the first two turns are kept.
import { readFileSync } from 'node:fs';
import { UserError } from '../../core/errors.js';

export interface Conversation {
  prompt: string;
  completion: string;
}

const SHAPE = 'expected a JSON array of {"conversations": [{"value": "..."}, ...]} (ShareGPT format)';

/** Line number (1-based) of byte offset `pos`, for error messages. */
function lineOf(buf: Buffer, pos: number): number {
  let n = 1;
  for (let i = 0; i < pos && i < buf.length; i++) if (buf[i] === 10) n++;
  return n;
}

/**
 * Entries with at least two turns, in file order (vLLM's filter, before its seeded shuffle).
 * Throws UserError naming the file and what is wrong.
 */
export function readShareGpt(file: string): Conversation[] {
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UserError(`dataset file not found: ${file} (check --dataset-path)`);
    throw new UserError(`cannot read dataset file ${file}: ${(e as Error).message}`);
  }
  let i = 0;
  const skipWs = () => {
    while (i < buf.length && (buf[i] === 32 || buf[i] === 10 || buf[i] === 13 || buf[i] === 9)) i++;
  };
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) i = 3;
  skipWs();
  if (buf[i] !== 0x5b /* [ */) throw new UserError(`${file}:${lineOf(buf, i)}: ${SHAPE}`);
  i++;
  const out: Conversation[] = [];
  let index = 0;
  for (;;) {
    skipWs();
    if (i >= buf.length) throw new UserError(`${file}:${lineOf(buf, i)}: unexpected end of file inside the top-level array`);
    if (buf[i] === 0x5d /* ] */) break;
    const start = i;
    // Scan one JSON value: track nesting and strings (with escapes).
    let depth = 0;
    let inStr = false;
    for (; i < buf.length; i++) {
      const c = buf[i]!;
      if (inStr) {
        if (c === 0x5c) i++;
        else if (c === 0x22) inStr = false;
        continue;
      }
      if (c === 0x22) inStr = true;
      else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        depth--;
        if (depth === 0) {
          i++;
          break;
        }
        if (depth < 0) break;
      } else if (depth === 0 && c === 0x2c) break;
    }
    let entry: unknown;
    try {
      entry = JSON.parse(buf.toString('utf8', start, i));
    } catch (e) {
      throw new UserError(`${file}:${lineOf(buf, start)}: invalid JSON in entry ${index}: ${(e as Error).message}`);
    }
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
      throw new UserError(`${file}:${lineOf(buf, start)}: entry ${index} is not an object; ${SHAPE}`);
    }
    const conv = (entry as { conversations?: unknown }).conversations;
    if (conv !== undefined && !Array.isArray(conv)) {
      throw new UserError(`${file}:${lineOf(buf, start)}: entry ${index}: "conversations" is not an array; ${SHAPE}`);
    }
    if (Array.isArray(conv) && conv.length >= 2) {
      const p = (conv[0] as { value?: unknown } | null)?.value;
      const c = (conv[1] as { value?: unknown } | null)?.value;
      if (typeof p !== 'string' || typeof c !== 'string') {
        throw new UserError(`${file}:${lineOf(buf, start)}: entry ${index}: turns need a string "value"; ${SHAPE}`);
      }
      out.push({ prompt: p, completion: c });
    }
    index++;
    skipWs();
    if (i >= buf.length) throw new UserError(`${file}:${lineOf(buf, i)}: unexpected end of file inside the top-level array`);
    if (buf[i] === 0x2c) {
      i++;
      continue;
    }
    if (buf[i] === 0x5d) break;
    throw new UserError(`${file}:${lineOf(buf, i)}: expected ',' or ']' after entry ${index - 1}`);
  }
  if (out.length === 0) throw new UserError(`${file}: no entry has two or more conversation turns; ${SHAPE}`);
  return out;
}
