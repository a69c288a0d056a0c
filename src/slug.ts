// Slugs for ids and names made from free text (category, product and vendor ids, the demo
// world's domains and people's handles): ASCII, lower case, words joined by a separator.

/** ASCII slug: strips accents, lowercases, joins words with the separator. */
export function slugify(text: string, sep = '-'): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .replace(/[øØ]/g, 'o')
    .replace(/[æÆ]/g, 'ae')
    .replace(/ı/g, 'i')
    .replace(/ł/g, 'l')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .replace(/ /g, sep);
}
