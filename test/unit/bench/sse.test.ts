import { describe, expect, it } from 'vitest';
import { SseParser, type SseMessage } from '../../../src/bench/http/sse.js';

const STREAM =
  ': comment at start\n\n' +
  'data: {"choices":[{"delta":{"content":"héllo 🌍"}}]}\n\n' +
  'event: message\r\ndata: {"choices":[{"delta":{"content":"b"}}]}\r\n\r\n' +
  'data: line1\ndata: line2\n\n' +
  ':keep-alive\n' +
  'data:no-space\n\n' +
  'event: error\ndata: {"error":"boom"}\n\n' +
  'data: [DONE]\n\n';

const EXPECTED: SseMessage[] = [
  { event: '', data: '{"choices":[{"delta":{"content":"héllo 🌍"}}]}' },
  { event: 'message', data: '{"choices":[{"delta":{"content":"b"}}]}' },
  { event: '', data: 'line1\nline2' },
  { event: '', data: 'no-space' },
  { event: 'error', data: '{"error":"boom"}' },
  { event: '', data: '[DONE]' },
];

function parseIn(pieces: Buffer[]): SseMessage[] {
  const p = new SseParser();
  const out: SseMessage[] = [];
  for (const b of pieces) out.push(...p.push(b));
  out.push(...p.end());
  return out;
}

describe('SseParser', () => {
  const bytes = Buffer.from(STREAM, 'utf8');
  it('parses a whole stream', () => {
    expect(parseIn([bytes])).toEqual(EXPECTED);
  });
  it('gives the same messages when the bytes are split at every possible boundary', () => {
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(parseIn([bytes.subarray(0, cut), bytes.subarray(cut)]), `cut at ${cut}`).toEqual(EXPECTED);
    }
  });
  it('handles one byte at a time (UTF-8 split inside characters, \\r\\n split)', () => {
    expect(parseIn([...bytes].map((b) => Buffer.from([b])))).toEqual(EXPECTED);
  });
  it('emits a final message that lacks its blank line at end of stream', () => {
    expect(parseIn([Buffer.from('data: {"x":1}\n\ndata: {"y":2}')])).toEqual([
      { event: '', data: '{"x":1}' },
      { event: '', data: '{"y":2}' },
    ]);
  });
});
