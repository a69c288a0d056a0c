// Deterministic randomness for the demo world: a string hash (cyrb128) keys a small
// fast PRNG (sfc32). Every entity gets its own stream keyed by (seed, kind, index), so
// the output never depends on batch size or generation order.

/** 128-bit string hash (cyrb128) as four 32-bit words. */
function hash128(text: string): [number, number, number, number] {
  let h1 = 1779033703,
    h2 = 3144134277,
    h3 = 1013904242,
    h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** 32-bit integer mix (murmur3 finalizer), for cheap keyed hashing of numbers. */
function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(key: string) {
    [this.a, this.b, this.c, this.d] = hash128(key);
    for (let i = 0; i < 12; i++) this.u32(); // warm up: decorrelate similar keys
  }

  /** sfc32 step: uniform 32-bit unsigned integer. */
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.u32() / 4294967296;
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  uniform(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One item, uniformly; an empty list has nothing to give, so it throws. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Rng.pick: the list to pick from is empty');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Index drawn with probability proportional to weights[i]; -1 only for no weights. */
  weighted(weights: readonly number[], total?: number): number {
    let sum = total ?? 0;
    if (total === undefined) for (const w of weights) sum += w;
    let r = this.next() * sum;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i]!;
      if (r < 0) return i;
    }
    return weights.length - 1;
  }

  /**
   * items[i] drawn with probability proportional to weights[i] (the same single draw as
   * `weighted`). Throws on an empty list, or when the two lists differ in length: a
   * shorter weight list would silently never pick the last items.
   */
  pickWeighted<T>(items: readonly T[], weights: readonly number[]): T {
    if (items.length === 0) throw new Error('Rng.pickWeighted: the list to pick from is empty');
    if (weights.length !== items.length) throw new Error(`Rng.pickWeighted: ${items.length} items but ${weights.length} weights`);
    return items[this.weighted(weights)]!;
  }

  /** Standard normal (Box-Muller). */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /** Log-normal with the given median and log-space sigma. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** Exponential with the given mean. */
  exp(mean: number): number {
    return -mean * Math.log(1 - this.next());
  }

  /** Poisson (Knuth; fine for the small means used here). */
  poisson(mean: number): number {
    const l = Math.exp(-mean);
    let k = 0;
    let p = 1;
    do {
      k++;
      p *= this.next();
    } while (p > l);
    return k - 1;
  }

  /** k distinct items (partial Fisher-Yates over a copy). */
  sample<T>(items: readonly T[], k: number): T[] {
    const copy = items.slice();
    const n = Math.min(k, copy.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.next() * (copy.length - i));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!]; // i < n <= length and i <= j < length
    }
    return copy.slice(0, n);
  }

  /** Random lowercase base36 string of the given length. */
  token(length: number): string {
    let s = '';
    for (let i = 0; i < length; i++) s += BASE36[this.u32() % 36]!;
    return s;
  }
}

/** The stream of one entity: seed + kind + index. */
export function rngFor(seed: string, kind: string, index: number | string): Rng {
  return new Rng(`${seed}\u0000${kind}\u0000${index}`);
}

/**
 * Opaque, collision-free ids: a seed-keyed Feistel permutation of a 48-bit counter,
 * written as 10 base36 characters. Distinct counters always give distinct ids.
 */
export function makeIdCodec(seed: string, kind: string): (n: number) => string {
  const keys = hash128(`${seed}\u0000id\u0000${kind}`);
  return (n: number) => {
    let left = Math.floor(n / 0x1000000) & 0xffffff;
    let right = n & 0xffffff;
    for (let round = 0; round < 4; round++) {
      const f = mix32((right ^ keys[round]!) >>> 0) & 0xffffff; // four rounds, four key words
      [left, right] = [right, (left ^ f) & 0xffffff];
    }
    return (left * 0x1000000 + right).toString(36).padStart(10, '0');
  };
}
