// COPY ... FROM STDIN over the embedded database's wire protocol. PGlite runs the COPY
// sub-protocol only when the whole of it arrives in one call (the Query, every CopyData, and
// the CopyDone or CopyFail): given the Query alone it waits for input that cannot come and
// the database stops ("Program terminated with exit(1)"). A client, though, sends its data
// only after the server's CopyInResponse. So the worker holds a COPY Query back, answers a
// CopyInResponse itself, collects the data, and hands PGlite the whole exchange at the
// CopyDone (or CopyFail), dropping the CopyInResponse PGlite then repeats.
//
// Held data stays in memory until the COPY ends; past MAX_HELD_BYTES the COPY is failed
// (PGlite gets it with a CopyFail, so its transaction aborts as PostgreSQL's would) and the
// rest of the data is discarded. The server's own bulk loads send a few megabytes a COPY.

/** Runs wire-protocol bytes on the database and returns its reply bytes. */
type RawExec = (message: Uint8Array) => Promise<Uint8Array>;

const QUERY = 0x51; // 'Q'
const COPY_DATA = 0x64; // 'd'
const COPY_DONE = 0x63; // 'c'
const COPY_FAIL = 0x66; // 'f'
const COPY_IN_RESPONSE = 0x47; // 'G'

/** A Query that starts a COPY from the client (simple query protocol, as psql and pg-copy-streams send it). */
const COPY_FROM_STDIN = /^\s*copy\b[^;]*\bfrom\s+stdin\b/i;

const MAX_HELD_BYTES = 256 * 2 ** 20;

export class CopyInRelay {
  private held: Uint8Array[] | undefined;
  private heldBytes = 0;
  private overflowed = false;

  constructor(
    private readonly exec: RawExec,
    private readonly maxHeldBytes = MAX_HELD_BYTES,
  ) {}

  /** A new connection: a COPY the last one left unfinished is forgotten (PGlite never saw it). */
  reset(): void {
    this.held = undefined;
    this.heldBytes = 0;
    this.overflowed = false;
  }

  /** Runs one batch of complete frontend messages; returns the replies to send back. */
  async run(batch: Uint8Array): Promise<Uint8Array> {
    // The common case costs one scan of the message headers.
    if (!this.held && !startsCopy(batch)) return this.exec(batch);
    const replies: Uint8Array[] = [];
    let plain: Uint8Array[] = [];
    const forwardPlain = async () => {
      if (plain.length === 0) return;
      replies.push(await this.exec(concat(plain)));
      plain = [];
    };
    for (const message of messages(batch)) {
      if (this.held) {
        const type = message[0];
        if (type === COPY_DATA) this.hold(message);
        else if (type === COPY_DONE || type === COPY_FAIL) replies.push(await this.finish(message));
        // Anything else (Flush, Sync) means nothing during a COPY from the client: PostgreSQL ignores it too.
      } else if (isCopyFromClient(message)) {
        await forwardPlain();
        this.held = [message];
        this.heldBytes = message.length;
        this.overflowed = false;
        replies.push(COPY_IN_RESPONSE_TEXT.slice()); // a copy: replies are transferred
      } else {
        plain.push(message);
      }
    }
    await forwardPlain();
    return replies.length === 1 ? replies[0]! : concat(replies);
  }

  private hold(message: Uint8Array): void {
    if (this.overflowed) return;
    if (this.heldBytes + message.length > this.maxHeldBytes) {
      this.overflowed = true;
      this.held!.length = 1; // the Query only: the data goes
      return;
    }
    // A copy: the batch's buffer belongs to the message that brought it.
    this.held!.push(message.slice());
    this.heldBytes += message.length;
  }

  private async finish(end: Uint8Array): Promise<Uint8Array> {
    const exchange = this.held!;
    const overflowed = this.overflowed;
    this.held = undefined;
    this.heldBytes = 0;
    this.overflowed = false;
    exchange.push(
      overflowed
        ? copyFail(`COPY through the embedded database holds at most ${this.maxHeldBytes / 2 ** 20} MiB of data; split it into several COPY statements`)
        : end,
    );
    const reply = await this.exec(concat(exchange));
    // Its own CopyInResponse went out already.
    return reply[0] === COPY_IN_RESPONSE ? reply.subarray(1 + readInt32(reply, 1)) : reply;
  }
}

/** CopyInResponse: text format, no per-column formats (clients of the text format read none). */
const COPY_IN_RESPONSE_TEXT = new Uint8Array([COPY_IN_RESPONSE, 0, 0, 0, 7, 0, 0, 0]);

function copyFail(reason: string): Uint8Array {
  const text = new TextEncoder().encode(`${reason}\0`);
  const out = new Uint8Array(5 + text.length);
  out[0] = COPY_FAIL;
  new DataView(out.buffer).setInt32(1, 4 + text.length);
  out.set(text, 5);
  return out;
}

function startsCopy(batch: Uint8Array): boolean {
  for (const message of messages(batch)) if (isCopyFromClient(message)) return true;
  return false;
}

function isCopyFromClient(message: Uint8Array): boolean {
  if (message[0] !== QUERY) return false;
  let at = 5;
  while (at < message.length && (message[at] === 0x20 || (message[at]! >= 0x09 && message[at]! <= 0x0d))) at++;
  // 'c' or 'C' first: most queries are decided without decoding them.
  return (message[at]! | 0x20) === 0x63 && COPY_FROM_STDIN.test(queryText(message));
}

function* messages(batch: Uint8Array): Generator<Uint8Array> {
  for (let at = 0; at + 5 <= batch.length;) {
    const end = at + 1 + readInt32(batch, at + 1);
    yield batch.subarray(at, end);
    at = end;
  }
}

function queryText(message: Uint8Array): string {
  // Enough of the statement to see whether it is a COPY from the client.
  return new TextDecoder().decode(message.subarray(5, Math.min(message.length - 1, 5 + 4096)));
}

function readInt32(bytes: Uint8Array, at: number): number {
  return ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;
}

/** The parts as one buffer: the only part itself, else a new buffer of its own (transferable: not a slice of Node's shared pool). */
export function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
