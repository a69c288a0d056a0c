import { test } from 'node:test';
import assert from 'node:assert/strict';
import { csvStream, neutralizeCell, safeFileName } from '../src/csv.ts';

async function text(stream: NodeJS.ReadableStream): Promise<string> {
  let s = '';
  for await (const chunk of stream) s += chunk.toString();
  return s;
}

test('CSV: header row, RFC 4180 quoting, CRLF records, formula cells neutralized', async () => {
  const rows = [
    { a: 'plain', b: 'has,comma', c: 3 },
    { a: '=HYPERLINK("http://x")', b: 'say "hi"\nnext line', c: -1 },
    { a: '+1', b: '@SUM(A1)', c: null },
    { a: '-2', b: '\tTab', c: 0 },
  ];
  const out = await text(
    csvStream(rows, [
      { header: 'a', value: (r) => r.a },
      { header: 'b', value: (r) => r.b },
      { header: 'c', value: (r) => r.c },
    ]),
  );
  assert.equal(out, 'a,b,c\r\nplain,"has,comma",3\r\n"\'=HYPERLINK(""http://x"")","say ""hi""\nnext line",-1\r\n\'+1,\'@SUM(A1),\r\n\'-2,\'\tTab,0\r\n');
});

test('neutralizeCell and safeFileName', () => {
  assert.equal(neutralizeCell('\rX'), "'\rX");
  assert.equal(neutralizeCell('ok=1'), 'ok=1');
  assert.equal(safeFileName('../../etc/passwd"; x=.csv'), 'etc_passwd_x_.csv');
});
