// The client's stream readers on hand-made byte streams: chunk boundaries anywhere (inside
// a quoted cell, between CR and LF, inside a multi-byte character) change nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { csvRows, jsonLines, lines } from '../../clients/typescript/src/index.ts';

/** The text as a byte stream cut into chunks of `size` bytes. */
function streamOf(text: string, size: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

const collect = async <T>(items: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
};

const CSV = 'id,name,city\r\n1,"Zeta, ""The"" Co\r\nline two",München\r\n2,,"\'=cmd"\r\n3,plain,"a\rb"\r\n';
const ROWS = [
  ['id', 'name', 'city'],
  ['1', 'Zeta, "The" Co\r\nline two', 'München'],
  ['2', '', "'=cmd"],
  ['3', 'plain', 'a\rb'],
];

test('csvRows parses RFC 4180 the same at every chunk size', async () => {
  for (let size = 1; size <= CSV.length + 1; size++) assert.deepEqual(await collect(csvRows(streamOf(CSV, size))), ROWS, `chunk size ${size}`);
});

test('csvRows: LF line ends, a last row without a line break, and blank lines', async () => {
  assert.deepEqual(await collect(csvRows(streamOf('a,b\n1,2\n\n3,"4"', 3))), [
    ['a', 'b'],
    ['1', '2'],
    ['3', '4'],
  ]);
  assert.deepEqual(await collect(csvRows(streamOf('a,\n,b', 2))), [
    ['a', ''],
    ['', 'b'],
  ]);
});

test('lines and jsonLines split on LF and CRLF at every chunk size', async () => {
  const text = '{"a":1,"s":"ü"}\r\n{"a":2}\n\n{"a":3}';
  for (let size = 1; size <= text.length; size++) {
    assert.deepEqual(await collect(lines(streamOf(text, size))), ['{"a":1,"s":"ü"}', '{"a":2}', '', '{"a":3}']);
    assert.deepEqual(await collect(jsonLines(streamOf(text, size))), [{ a: 1, s: 'ü' }, { a: 2 }, { a: 3 }]);
  }
});
