// Reading export streams without holding them in memory: text chunks, lines, JSON Lines
// records and RFC 4180 CSV rows, each as an async iterable over a web ReadableStream.

/** Decoded UTF-8 text, chunk by chunk (a character split across chunks is kept whole). */
export async function* textChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      if (text) yield text;
    }
    const rest = decoder.decode();
    if (rest) yield rest;
  } finally {
    // Stopping early (a `break` in the caller's loop) cancels the download.
    await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/** Lines without their LF or CRLF; a last line without a line break is kept. */
export async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  let buffer = '';
  for await (const chunk of textChunks(stream)) {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      yield buffer.slice(0, nl).replace(/\r$/, '');
      buffer = buffer.slice(nl + 1);
    }
  }
  if (buffer) yield buffer.replace(/\r$/, '');
}

/** One parsed object per non-empty line of a JSON Lines stream. */
export async function* jsonLines<T = unknown>(stream: ReadableStream<Uint8Array>): AsyncGenerator<T> {
  for await (const line of lines(stream)) if (line.trim()) yield JSON.parse(line) as T;
}

/**
 * CSV rows (RFC 4180: quoted fields, doubled quotes, line breaks inside quotes, CRLF or
 * LF), the header row first. Cells come back as sent: the service prefixes a cell that
 * starts with = + - @ with ' so spreadsheets never run it.
 */
export async function* csvRows(stream: ReadableStream<Uint8Array>): AsyncGenerator<string[]> {
  let row: string[] = [];
  let cell = '';
  let quoted = false; // inside a quoted field
  let afterQuote = false; // just read a quote inside a quoted field: "" or the closing one
  let pendingCr = false;
  let any = false; // the current row has content
  for await (const chunk of textChunks(stream)) {
    for (const ch of chunk) {
      if (quoted) {
        if (afterQuote) {
          afterQuote = false;
          if (ch === '"') {
            cell += '"';
            continue;
          }
          quoted = false; // the quote closed the field; fall through to read `ch` unquoted
        } else {
          if (ch === '"') afterQuote = true;
          else cell += ch;
          continue;
        }
      }
      if (pendingCr && ch !== '\n') cell += '\r';
      pendingCr = false;
      if (ch === '"' && cell === '') {
        quoted = true;
        any = true;
      } else if (ch === ',') {
        row.push(cell);
        cell = '';
        any = true;
      } else if (ch === '\r') pendingCr = true;
      else if (ch === '\n') {
        if (any || cell) {
          row.push(cell);
          yield row;
        }
        row = [];
        cell = '';
        any = false;
      } else {
        cell += ch;
        any = true;
      }
    }
  }
  if (any || cell) {
    row.push(cell);
    yield row;
  }
}

/** CSV rows as objects keyed by the header row. */
export async function* csvRecords(stream: ReadableStream<Uint8Array>): AsyncGenerator<Record<string, string>> {
  let header: string[] | undefined;
  for await (const row of csvRows(stream)) {
    if (!header) {
      header = row;
      continue;
    }
    yield Object.fromEntries(header.map((name, i) => [name, row[i] ?? '']));
  }
}
