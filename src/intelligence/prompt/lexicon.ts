// A lexicon: surface forms (names, aliases, codes) → entries, looked up by compact key
// (exact) or approximately (typos, through a trigram index and an edit-distance check).
// The catalog, the countries and the people/size/time vocabularies are each one Lexicon.
import { allowedEdits, editDistance, keyboardDistance, trigrams, typoScore } from './fuzzy.ts';
import { COMMON_WORDS, GENERIC_WORDS, STOP_WORDS, tokenize } from './text.ts';

export type EntryType = 'product' | 'vendor' | 'category' | 'industry' | 'company' | 'country' | 'employees' | 'revenue' | 'time' | 'seniority' | 'function';

export interface LexEntry {
  type: EntryType;
  /** Entity id, ISO code, or the label of a vocabulary entry. */
  id: string;
  /** Display name. */
  name: string;
  kind: 'exact' | 'alias';
  /** Extra meaning: country match kind, band labels, seniority/function values... */
  data?: readonly string[];
  /** A single common English word: read only when capitalized or after a usage cue. */
  guarded: boolean;
  /** Read only when written in capitals (two-letter country codes, "IT"). */
  upperOnly: boolean;
  /** May be matched approximately. */
  fuzzy: boolean;
  /** Number of words of the surface form. */
  words: number;
  /** The surface form has punctuation inside ("Governance, Risk & Compliance"). */
  breaks: boolean;
}

interface AddOptions {
  kind?: 'exact' | 'alias';
  data?: readonly string[];
  upperOnly?: boolean;
  fuzzy?: boolean;
  /** Force or waive the common-word guard (default: guarded when the name is one common word). */
  guarded?: boolean;
  /** Accept single generic or stop words as a name (vocabularies such as "IT"). */
  allowGeneric?: boolean;
}

interface FuzzyHit {
  key: string;
  entries: LexEntry[];
  distance: number;
  /** Edit distance where a slip to a neighbouring key costs less: breaks ties. */
  weighted: number;
  score: number;
}

/** Minimum length of a key (and of the prompt text) for a typo match. */
const FUZZY_MIN_LENGTH = 5;

export class Lexicon {
  private readonly exact = new Map<string, LexEntry[]>();
  private readonly fuzzyKeys: string[] = [];
  private readonly fuzzyGramCounts: number[] = [];
  /** Fuzzy keys by first letter and word count: the only candidates a typo can have. */
  private readonly fuzzyByStart = new Map<string, number[]>();
  private readonly fuzzyKeyIndex = new Map<string, number>();
  private readonly trigramIndex = new Map<string, number[]>();
  maxTokens = 1;

  /** Adds a surface form; returns false when the form is too generic to stand for anything. */
  add(surface: string, type: EntryType, id: string, name: string, options: AddOptions = {}): boolean {
    const tokens = tokenize(surface).filter((t) => t.compact);
    const words = tokens.map((t) => t.compact);
    const key = words.join('');
    if (key === '') return false;
    if (words.length === 1 && !options.allowGeneric && !options.upperOnly && (STOP_WORDS.has(key) || GENERIC_WORDS.has(key))) return false;
    const entry: LexEntry = {
      type,
      id,
      name,
      kind: options.kind ?? 'exact',
      data: options.data,
      guarded: options.guarded ?? (words.length === 1 && COMMON_WORDS.has(key)),
      upperOnly: options.upperOnly ?? false,
      fuzzy: options.fuzzy ?? false,
      words: words.length,
      breaks: tokens.some((t, k) => k > 0 && t.breakBefore),
    };
    const list = this.exact.get(key) ?? [];
    // One entry per (type, id) and key: the better kind wins (exact over alias).
    const same = list.findIndex((e) => e.type === type && e.id === id);
    if (same >= 0) {
      if (list[same]!.kind === 'alias' && entry.kind === 'exact') list[same] = entry;
      return true;
    }
    list.push(entry);
    this.exact.set(key, list);
    this.maxTokens = Math.max(this.maxTokens, words.length);
    if (entry.fuzzy && !entry.upperOnly && key.length >= FUZZY_MIN_LENGTH && !this.fuzzyKeyIndex.has(key)) {
      const index = this.fuzzyKeys.length;
      this.fuzzyKeys.push(key);
      this.fuzzyKeyIndex.set(key, index);
      const grams = trigrams(key);
      this.fuzzyGramCounts.push(grams.length);
      const start = `${key[0]}|${words.length}`;
      const bucket = this.fuzzyByStart.get(start);
      if (bucket) bucket.push(index);
      else this.fuzzyByStart.set(start, [index]);
      for (const t of grams) {
        const posting = this.trigramIndex.get(t);
        if (posting) posting.push(index);
        else this.trigramIndex.set(t, [index]);
      }
    }
    return true;
  }

  lookup(key: string): readonly LexEntry[] {
    return this.exact.get(key) ?? [];
  }

  /**
   * Names of `words` words within the allowed number of edits of `key`, closest first (ties:
   * all of them). Typos keep the first letter and the number of words: people rarely mistype
   * the first letter, and requiring both cuts false hits and work.
   */
  fuzzy(key: string, words: number): FuzzyHit[] {
    if (key.length < FUZZY_MIN_LENGTH || /^[0-9]/.test(key)) return [];
    const shared = new Map<number, number>();
    // Only names of about the same length can be within two edits.
    for (const i of this.fuzzyByStart.get(`${key[0]}|${words}`) ?? []) {
      if (Math.abs(this.fuzzyKeys[i]!.length - key.length) <= 2) shared.set(i, 0);
    }
    if (shared.size === 0) return [];
    const grams = trigrams(key);
    for (const t of grams) {
      for (const i of this.trigramIndex.get(t) ?? []) {
        const c = shared.get(i);
        if (c !== undefined) shared.set(i, c + 1);
      }
    }
    let best: FuzzyHit[] = [];
    for (const [i, count] of shared) {
      const candidate = this.fuzzyKeys[i]!;
      // Cheap filter before the edit distance: one typo leaves most trigrams in place.
      const jaccard = count / (grams.length + this.fuzzyGramCounts[i]! - count);
      if (jaccard < 0.2) continue;
      const max = allowedEdits(Math.min(candidate.length, key.length));
      if (max === 0) continue;
      const distance = editDistance(key, candidate, max);
      if (distance === 0 || distance > max) continue;
      const entries = (this.exact.get(candidate) ?? []).filter((e) => e.fuzzy);
      const hit = { key: candidate, entries, distance, weighted: keyboardDistance(key, candidate), score: typoScore(distance, candidate.length) };
      if (best.length === 0 || distance < best[0]!.distance) best = [hit];
      else if (distance === best[0]!.distance) best.push(hit);
    }
    return best.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }
}
