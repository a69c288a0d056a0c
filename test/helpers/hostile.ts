// Values that have broken services before, by kind: the dictionary of the fuzzing passes
// (REST: test/http/fuzz.test.ts; MCP tools: test/mcp/fuzz.test.ts). Each kind is tried as
// often as the others, in every kind of field.
export const HOSTILE_STRINGS = {
  control: ['\u0000', 'a\u0000b', 'x\u0001y', '\u001f', '\u007f', '\u0085', 'tab\there', 'line\nbreak', '\r\n'],
  surrogates: ['\ud800', 'x\udc00y', '\udbff', 'a\udfffb'],
  long: ['x'.repeat(10_240), '😀'.repeat(300), 'é'.repeat(2001)],
  unicode: ['😀', '👩‍💻 Ünïcødé ß İ', 'Ω', '\u200b', '\ufeff'],
  prototype: ['__proto__', 'constructor', 'toString', 'prototype', 'hasOwnProperty', 'valueOf'],
  sql: ['%', '_', '\\', "'", '%_\\', "' OR '1'='1", "'; DROP TABLE companies; --", '%%', '\\%', '"', '$1', '::text'],
  odd: ['', ' ', '..', '../../etc/passwd', '%00', '%ZZ', '1e309', '-0', 'NaN', 'null', 'true', '[]', '{}'],
};
