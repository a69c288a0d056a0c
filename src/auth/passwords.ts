// Password hashing for the console's people: scrypt (memory-hard, Node's built-in crypto, no
// native addon), with the parameters in the stored string so they can be raised later without
// breaking existing hashes. The format follows the PHC string format:
//   $scrypt$ln=17,r=8,p=1$<salt, base64 without padding>$<32-byte key, base64 without padding>
// ln is log2(N): N = 2^17, r = 8, p = 1 is OWASP's scrypt guidance (Password Storage Cheat
// Sheet); it takes 128 MiB and about 200-400 ms of one core per hash (the libuv thread pool,
// off the event loop). Comparison is constant-time. A hash made with weaker parameters (the
// earlier ln=15) still verifies, and needsRehash says to replace it at the next sign-in.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../schemas/console.ts';

export const SCRYPT_PARAMS = { ln: 17, r: 8, p: 1 } as const;
const KEY_BYTES = 32;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, params: { ln: number; r: number; p: number }): Promise<Buffer> {
  const N = 2 ** params.ln;
  const options: ScryptOptions = { N, r: params.r, p: params.p, maxmem: 128 * N * params.r * params.p + 16 * 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

const b64 = (b: Buffer) => b.toString('base64').replace(/=+$/, '');

export async function hashPassword(password: string, params: { ln: number; r: number; p: number } = SCRYPT_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params);
  const { ln, r, p } = params;
  return `$scrypt$ln=${ln},r=${r},p=${p}$${b64(salt)}$${b64(key)}`;
}

const FORMAT = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

interface StoredHash {
  params: { ln: number; r: number; p: number };
  salt: string;
  key: string;
}

function parse(stored: string): StoredHash | undefined {
  const m = FORMAT.exec(stored);
  if (!m) return undefined;
  const [ln, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (ln < 10 || ln > 20 || r < 1 || r > 32 || p < 1 || p > 16) return undefined;
  return { params: { ln, r, p }, salt: m[4]!, key: m[5]! };
}

/** True when the stored hash was made with less work than SCRYPT_PARAMS asks for (it is replaced at the next sign-in). */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  if (!parsed) return false;
  const { ln, r } = parsed.params;
  // Memory (N·r) is what makes scrypt costly to attack in parallel: less of it is weaker,
  // whatever p adds in time.
  return ln < SCRYPT_PARAMS.ln || 2 ** ln * r < 2 ** SCRYPT_PARAMS.ln * SCRYPT_PARAMS.r;
}

/** True when `password` matches the stored hash; false for any other hash (never throws on a bad one). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const expected = Buffer.from(parsed.key, 'base64');
  const actual = await derive(password, Buffer.from(parsed.salt, 'base64'), parsed.params);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash no password matches, verified against when the email is unknown: the answer takes as long either way. */
export const DUMMY_PASSWORD_HASH = `$scrypt$ln=${SCRYPT_PARAMS.ln},r=${SCRYPT_PARAMS.r},p=${SCRYPT_PARAMS.p}$${b64(Buffer.alloc(SALT_BYTES))}$${b64(Buffer.alloc(KEY_BYTES))}`;

/** A random password to print once: 20 characters of base64url (120 bits). */
export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}

/** The rule a chosen password must meet; the message names it. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return `password: must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_LENGTH) return `password: must be at most ${MAX_PASSWORD_LENGTH} bytes`;
  return undefined;
}
