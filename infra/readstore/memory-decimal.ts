/**
 * PostgreSQL's numeric arithmetic for the in-memory evaluator's sums and averages (memory-query.ts):
 * the stores add decimals, not binary fractions, and divide with numeric's own result scale, so
 * the evaluator does the same to answer the same float8.
 */

/** `units / 10^scale`; `scale` is numeric's display scale (trailing zeros count: 0.25 + 0.25 is 0.50). */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

export const ZERO: Decimal = { units: 0n, scale: 0 };

/** A decimal text (`-12.5`, `1e-7`, `1.5e+21`) as numeric_in reads it: its scale is the digits it writes after the point. */
export function parseDecimal(text: string): Decimal {
  const match = /^(-?)(\d+)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text);
  if (!match) throw new Error(`not a decimal: ${text}`);
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  const scale = fraction.length - Number(exponent);
  const digits = BigInt(`${sign}${whole}${fraction}`);
  return scale >= 0 ? { units: digits, scale } : { units: digits * 10n ** BigInt(-scale), scale: 0 };
}

/** A JSON number as `value::numeric` reads it: exactly its shortest decimal form. */
export const jsonNumeric = (value: number): Decimal => parseDecimal(String(value));

/**
 * A float8 column's value as `col::numeric` reads it: printed `%.15g` (15 significant digits,
 * trailing zeros dropped), then read.
 */
export function float8Numeric(value: number): Decimal {
  const rounded = parseDecimal(value.toPrecision(15));
  let { units, scale } = rounded;
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale -= 1;
  }
  return { units, scale };
}

export function add(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: a.units * 10n ** BigInt(scale - a.scale) + b.units * 10n ** BigInt(scale - b.scale), scale };
}

/** numeric → float8: its text read by strtod, which rounds correctly as Number() does. */
export function toNumber(value: Decimal): number {
  return Number(decimalText(value));
}

function decimalText({ units, scale }: Decimal): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

const NUMERIC_MIN_SIG_DIGITS = 16;
const DEC_DIGITS = 4;
const NUMERIC_MAX_DISPLAY_SCALE = 1000;

/**
 * `sum / count` as numeric_avg computes it (numeric_div): to select_div_scale's number of
 * fractional digits, rounded half away from zero; then as float8.
 */
export function average(sum: Decimal, count: number): number {
  const divisor: Decimal = { units: BigInt(count), scale: 0 };
  const [weight1, first1] = leading(sum);
  const [weight2, first2] = leading(divisor);
  let quotientWeight = weight1 - weight2;
  if (first1 <= first2) quotientWeight -= 1;
  const rscale = Math.min(Math.max(NUMERIC_MIN_SIG_DIGITS - quotientWeight * DEC_DIGITS, sum.scale, 0), NUMERIC_MAX_DISPLAY_SCALE);
  // units / 10^scale / count, to rscale digits: (units * 10^rscale) / (count * 10^scale).
  const numerator = sum.units * 10n ** BigInt(rscale);
  const denominator = divisor.units * 10n ** BigInt(sum.scale);
  const magnitude = numerator < 0n ? -numerator : numerator;
  let quotient = magnitude / denominator;
  if ((magnitude % denominator) * 2n >= denominator) quotient += 1n;
  return toNumber({ units: numerator < 0n ? -quotient : quotient, scale: rscale });
}

/** The weight (power of numeric's base 10000) of the first non-zero base-10000 digit, and that digit; [0, 0] for zero. */
function leading({ units, scale }: Decimal): [number, bigint] {
  const magnitude = units < 0n ? -units : units;
  if (magnitude === 0n) return [0, 0n];
  const power10 = magnitude.toString().length - 1 - scale;
  const weight = Math.floor(power10 / DEC_DIGITS);
  const shift = scale + weight * DEC_DIGITS;
  const digit = shift >= 0 ? magnitude / 10n ** BigInt(shift) : magnitude * 10n ** BigInt(-shift);
  return [weight, digit];
}
