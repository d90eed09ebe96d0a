// RFC 3492's decoder, for browsers as for Node: browsers offer no way to read an `xn--` host name.

const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const INITIAL_BIAS = 72;
const INITIAL_N = 0x80;
const MAX_INT = 0x7fffffff;

/**
 * The Unicode text a Punycode string (a host label without its `xn--`) stands for, or null when it is
 * not Punycode: a character outside the digits, a number past 32 bits, a code point past Unicode.
 * @example decodePunycode('nxasmq6b') → 'βόλοσ'; decodePunycode('!') → null
 */
export function decodePunycode(input: string): string | null {
  const delimiter = input.lastIndexOf('-');
  const output: number[] = [];
  for (let j = 0; j < delimiter; j++) {
    const code = input.charCodeAt(j);
    if (code >= 0x80) return null;
    output.push(code);
  }
  let n = INITIAL_N;
  let bias = INITIAL_BIAS;
  let i = 0;
  for (let index = delimiter + 1; index < input.length; ) {
    const previous = i;
    let weight = 1;
    for (let k = BASE; ; k += BASE) {
      if (index >= input.length) return null;
      const digit = digitValue(input.charCodeAt(index++));
      if (digit < 0 || digit > Math.floor((MAX_INT - i) / weight)) return null;
      i += digit * weight;
      const threshold = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (digit < threshold) break;
      if (weight > Math.floor(MAX_INT / (BASE - threshold))) return null;
      weight *= BASE - threshold;
    }
    const length = output.length + 1;
    bias = adapt(i - previous, length, previous === 0);
    if (Math.floor(i / length) > MAX_INT - n) return null;
    n += Math.floor(i / length);
    i %= length;
    if (n > 0x10ffff) return null;
    output.splice(i++, 0, n);
  }
  return String.fromCodePoint(...output);
}

/** A Punycode digit's value (`a`–`z` 0–25, `0`–`9` 26–35), or -1. */
function digitValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30 + 26;
  if (code >= 0x41 && code <= 0x5a) return code - 0x41;
  if (code >= 0x61 && code <= 0x7a) return code - 0x61;
  return -1;
}

/** The bias after each code point (RFC 3492, section 6.1). */
function adapt(delta: number, length: number, first: boolean): number {
  let scaled = first ? Math.floor(delta / DAMP) : delta >> 1;
  scaled += Math.floor(scaled / length);
  let k = 0;
  for (; scaled > ((BASE - T_MIN) * T_MAX) >> 1; k += BASE) scaled = Math.floor(scaled / (BASE - T_MIN));
  return k + Math.floor(((BASE - T_MIN + 1) * scaled) / (scaled + SKEW));
}
