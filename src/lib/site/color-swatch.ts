/**
 * A record colour's values as a CSS `#rrggbb` colour, for a swatch: CIELAB (D65) or sRGB values (0–255, or
 * 0–1 when none is above 1); null for any other colour space, a wrong count of values, or values out of range.
 * @example colorSwatch('CIELAB (D65/10°)', [16.2, 0.4, -1.1]) → '#292a2a'
 * @example colorSwatch('sRGB', [255, 0, 0]) → '#ff0000'
 */
export function colorSwatch(space: string | null, values: number[] | null): string | null {
  if (!space || !values || values.length !== 3 || !values.every(Number.isFinite)) return null;
  if (/\blab\b|cielab|l\*a\*b/i.test(space)) {
    const [l, a, b] = values as [number, number, number];
    if (l < 0 || l > 100 || Math.abs(a) > 200 || Math.abs(b) > 200) return null;
    return hex(labToSrgb(l, a, b));
  }
  if (/\bs?rgb\b/i.test(space) && !/adobe|display|p3|prophoto/i.test(space)) {
    const scale = values.some((v) => v > 1) ? 255 : 1;
    if (values.some((v) => v < 0 || v > scale)) return null;
    return hex(values.map((v) => v / scale) as [number, number, number]);
  }
  return null;
}

/** D65 reference white (CIE 1931 2°, the white sRGB is defined on). */
const WHITE = [0.95047, 1, 1.08883] as const;

function labToSrgb(l: number, a: number, b: number): [number, number, number] {
  const fy = (l + 16) / 116;
  const fx = fy + a / 500;
  const fz = fy - b / 200;
  const inverse = (t: number) => (t ** 3 > 216 / 24389 ? t ** 3 : (116 * t - 16) / (24389 / 27));
  const x = WHITE[0] * inverse(fx);
  const y = WHITE[1] * (l > 8 ? fy ** 3 : l / (24389 / 27));
  const z = WHITE[2] * inverse(fz);
  const linear = [
    3.2404542 * x - 1.5371385 * y - 0.4985314 * z,
    -0.969266 * x + 1.8760108 * y + 0.041556 * z,
    0.0556434 * x - 0.2040259 * y + 1.0572252 * z,
  ];
  return linear.map((c) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055)) as [number, number, number];
}

function hex(channels: [number, number, number]): string {
  return `#${channels
    .map((c) =>
      Math.round(Math.min(1, Math.max(0, c)) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}
