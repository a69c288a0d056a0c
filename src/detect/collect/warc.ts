// WARC reader (WARC/1.0 and 1.1, plain or gzip per record as web archives and Common Crawl
// write them): every `response` record holding an HTML page becomes one SiteArtifacts. A small
// streaming parser: record headers, then exactly Content-Length bytes of block, of which at
// most `maxRecordBytes` are kept — memory stays flat whatever the file's size. The HTTP
// message inside is parsed for status, headers and Set-Cookie; chunked transfer coding and
// gzip/deflate/br content coding are undone. (warcio.js would pull in yargs, tempy and pako
// for what is ~150 lines here.)
import { createReadStream } from 'node:fs';
import { PassThrough, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { normalizeDomain } from '../../domain.ts';
import { HTML_CAP } from '../page.ts';
import { captureTime, type SiteArtifacts } from '../types.ts';

interface WarcOptions {
  /** Bytes of one record's block kept (default 2 MiB); the rest is skipped unread into memory. */
  maxRecordBytes?: number;
}

/** A malformed WARC file; the message names the byte offset. */
export class WarcError extends Error {
  override name = 'WarcError';
}

const HEADER_MAX = 64 * 1024;

/** Pulls bytes from an async iterator of chunks without gathering more than asked for. */
class ByteReader {
  private buf: Buffer = Buffer.alloc(0);
  private eof = false;
  offset = 0;
  constructor(private readonly it: AsyncIterator<Buffer>) {}

  private async fill(): Promise<boolean> {
    if (this.eof) return false;
    const r = await this.it.next();
    if (r.done) {
      this.eof = true;
      return false;
    }
    const chunk = Buffer.isBuffer(r.value) ? r.value : Buffer.from(r.value);
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    return true;
  }

  /** Skips blank lines between records; false at the end of input. */
  async skipBlank(): Promise<boolean> {
    for (;;) {
      let i = 0;
      while (i < this.buf.length && (this.buf[i] === 0x0d || this.buf[i] === 0x0a)) i++;
      this.consume(i);
      if (this.buf.length) return true;
      if (!(await this.fill())) return false;
    }
  }

  /** The bytes up to a blank line (CRLFCRLF or LFLF), which is consumed too. */
  async headerBlock(): Promise<Buffer> {
    let from = 0;
    for (;;) {
      const crlf = this.buf.indexOf('\r\n\r\n', Math.max(0, from - 3));
      const lf = this.buf.indexOf('\n\n', Math.max(0, from - 1));
      const end = crlf >= 0 && (lf < 0 || crlf < lf) ? [crlf, 4] : lf >= 0 ? [lf, 2] : null;
      if (end) {
        const block = this.buf.subarray(0, end[0]!);
        this.consume(end[0]! + end[1]!);
        return Buffer.from(block);
      }
      if (this.buf.length > HEADER_MAX) throw new WarcError(`record header at byte ${this.offset} is longer than ${HEADER_MAX} bytes`);
      from = this.buf.length;
      if (!(await this.fill())) throw new WarcError(`file ends inside a record header at byte ${this.offset}`);
    }
  }

  /** Reads `n` bytes, keeping the first `keep`; throws if the input ends first. */
  async take(n: number, keep: number): Promise<Buffer> {
    const kept: Buffer[] = [];
    let keptLen = 0,
      left = n;
    while (left > 0) {
      if (!this.buf.length && !(await this.fill())) throw new WarcError(`file ends inside a record block at byte ${this.offset}`);
      const part = this.buf.subarray(0, Math.min(left, this.buf.length));
      if (keptLen < keep) {
        const slice = part.subarray(0, keep - keptLen);
        kept.push(Buffer.from(slice));
        keptLen += slice.length;
      }
      this.consume(part.length);
      left -= part.length;
    }
    return Buffer.concat(kept);
  }

  private consume(n: number): void {
    this.buf = this.buf.subarray(n);
    this.offset += n;
  }
}

function parseFields(lines: string[]): Map<string, string> {
  const fields = new Map<string, string>();
  let last = '';
  for (const line of lines) {
    if (/^[ \t]/.test(line) && last) {
      fields.set(last, `${fields.get(last)} ${line.trim()}`);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    last = line.slice(0, colon).trim().toLowerCase();
    fields.set(last, line.slice(colon + 1).trim());
  }
  return fields;
}

function dechunk(body: Buffer): Buffer {
  const out: Buffer[] = [];
  let i = 0;
  while (i < body.length) {
    const eol = body.indexOf('\r\n', i);
    if (eol < 0) break;
    const size = parseInt(body.subarray(i, eol).toString('latin1').split(';')[0]!.trim(), 16);
    if (!Number.isFinite(size) || size <= 0) break;
    out.push(body.subarray(eol + 2, eol + 2 + size));
    i = eol + 2 + size + 2;
  }
  return out.length ? Buffer.concat(out) : body;
}

/** Undoes a content coding, keeping at most `cap` bytes of output (a zip bomb stops there). */
function decode(body: Buffer, encoding: string | undefined, cap: number): Promise<Buffer> {
  const make = { gzip: zlib.createGunzip, 'x-gzip': zlib.createGunzip, deflate: zlib.createInflate, br: zlib.createBrotliDecompress }[
    (encoding ?? '').trim().toLowerCase()
  ];
  if (!make) return Promise.resolve(body);
  return new Promise((resolve) => {
    const z = make();
    const out: Buffer[] = [];
    let size = 0,
      done = false;
    const finish = (ok: boolean) => {
      if (done) return;
      done = true;
      // Nothing decoded: the archiver stored the payload decoded and kept the header (Common Crawl does).
      resolve(ok || size ? Buffer.concat(out) : body);
    };
    z.on('data', (c: Buffer) => {
      out.push(c);
      size += c.length;
      if (size >= cap) {
        finish(true);
        z.destroy();
      }
    });
    z.on('end', () => finish(true));
    z.on('error', () => finish(false));
    z.end(body);
  });
}

/** One HTTP response message (status line, headers, body) → page fields, or null if it is not HTML. */
async function parseHttpResponse(block: Buffer, url: string): Promise<SiteArtifacts['pages'][number] | null> {
  const split = block.indexOf('\r\n\r\n');
  const alt = split < 0 ? block.indexOf('\n\n') : -1;
  const headEnd = split >= 0 ? split : alt;
  if (headEnd < 0) return null;
  const head = block.subarray(0, headEnd).toString('latin1').split(/\r?\n/);
  const status = /^HTTP\/\d(?:\.\d)?\s+(\d{3})/.exec(head[0] ?? '');
  if (!status) return null;
  const headers: Record<string, string | string[]> = {};
  const cookies: string[] = [];
  for (const line of head.slice(1, 201)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'set-cookie') cookies.push(value);
    else {
      const prev = headers[name];
      headers[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
    }
  }
  const type = String(headers['content-type'] ?? '');
  if (type && !/html|xml/i.test(type)) return null;
  let body = block.subarray(headEnd + (split >= 0 ? 4 : 2));
  if (/chunked/i.test(String(headers['transfer-encoding'] ?? ''))) body = dechunk(body);
  body = await decode(body, headers['content-encoding'] as string | undefined, HTML_CAP * 4);
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(type)?.[1];
  let html: string;
  try {
    html = new TextDecoder(charset ?? 'utf-8').decode(body.subarray(0, HTML_CAP * 4));
  } catch {
    html = new TextDecoder('utf-8').decode(body.subarray(0, HTML_CAP * 4));
  }
  return { url, status: Number(status[1]), headers, cookies, html: html.length > HTML_CAP ? html.slice(0, HTML_CAP) : html };
}

/** The input as plain bytes: gunzipped when it starts with the gzip magic (multi-member: one member per record). */
async function* plainBytes(source: Readable): AsyncGenerator<Buffer> {
  const it = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await it.next();
  if (first.done) return;
  const head = Buffer.from(first.value);
  const rest = async function* () {
    yield head;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      yield Buffer.from(r.value);
    }
  };
  if (head[0] === 0x1f && head[1] === 0x8b) {
    const gunzip = zlib.createGunzip();
    const feed = PassThrough.from(rest());
    feed.on('error', (e) => gunzip.destroy(e));
    yield* feed.pipe(gunzip) as AsyncIterable<Buffer>;
  } else yield* rest();
}

/**
 * Streams a WARC file (a path or a readable stream; .warc or .warc.gz, detected by content)
 * and yields one SiteArtifacts per HTML `response` record. Throws WarcError on a file that is
 * not WARC or is cut inside a record.
 */
export async function* readWarc(input: string | Readable, opts: WarcOptions = {}): AsyncGenerator<SiteArtifacts> {
  const maxRecord = opts.maxRecordBytes ?? 2 * 1024 * 1024;
  const source = typeof input === 'string' ? createReadStream(input) : input;
  const reader = new ByteReader(plainBytes(source));
  while (await reader.skipBlank()) {
    const at = reader.offset;
    const lines = (await reader.headerBlock()).toString('utf8').split(/\r?\n/);
    if (!/^WARC\/1\.[01]$/.test(lines[0]?.trim() ?? ''))
      throw new WarcError(`no WARC/1.0 or WARC/1.1 record at byte ${at} (found '${(lines[0] ?? '').slice(0, 40)}')`);
    const fields = parseFields(lines.slice(1));
    const length = Number(fields.get('content-length'));
    if (!Number.isInteger(length) || length < 0) throw new WarcError(`record at byte ${at} has no valid Content-Length`);
    const type = fields.get('warc-type');
    const isResponse = type === 'response' && /application\/http/i.test(fields.get('content-type') ?? 'application/http');
    const block = await reader.take(length, isResponse ? maxRecord : 0);
    if (!isResponse) continue;
    const url = (fields.get('warc-target-uri') ?? '').replace(/^<|>$/g, '');
    let host: string;
    try {
      host = new URL(url).hostname;
    } catch {
      continue;
    }
    const domain = normalizeDomain(host);
    const page = domain ? await parseHttpResponse(block, url) : null;
    const capturedAt = captureTime(fields.get('warc-date'));
    if (domain && page) yield { domain, pages: [page], ...(capturedAt ? { capturedAt } : {}) };
  }
}
