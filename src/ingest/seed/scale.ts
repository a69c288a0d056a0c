// The --scale presets of `stacklens seed`: world density. The catalog is the technology
// catalog (catalog/technologies) at every preset; `vendors` and `products` are no longer used
// to size it (kept for the presets' shape). The category tree is the same for every preset.

export type ScaleName = 'S' | 'M' | 'L';

export interface ScalePreset {
  name: ScaleName;
  /** Vendors and products in the catalog. */
  vendors: number;
  products: number;
  /** Multiplier on every category adoption rate (installs per company). */
  stackDensity: number;
  /** Multipliers on people per company and feed items per company. */
  peopleDensity: number;
  newsDensity: number;
}

export const SCALES: Record<ScaleName, ScalePreset> = {
  S: { name: 'S', vendors: 100, products: 600, stackDensity: 0.7, peopleDensity: 0.7, newsDensity: 0.6 },
  M: { name: 'M', vendors: 300, products: 2000, stackDensity: 1, peopleDensity: 1, newsDensity: 1 },
  L: { name: 'L', vendors: 600, products: 4000, stackDensity: 1.25, peopleDensity: 1.2, newsDensity: 1.2 },
};

export function isScaleName(value: string): value is ScaleName {
  return value === 'S' || value === 'M' || value === 'L';
}
