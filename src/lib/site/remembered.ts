/** The most inputs a remembered function keeps: they come from records, so only practice bounds them. */
const REMEMBERED_MAX = 10_000;

/**
 * `compute`, remembering what it gave for each input (and starting afresh past `max` inputs): for
 * slow work a build asks of the same few values again and again (Intl, labels).
 * @example const label = remembered((key) => humanize(key)); label('fit_type') → 'Fit type', worked out once
 */
export function remembered<Output>(compute: (input: string) => Output, max = REMEMBERED_MAX): (input: string) => Output {
  const known = new Map<string, Output>();
  return (input) => {
    let output = known.get(input);
    if (output === undefined) {
      output = compute(input);
      if (known.size >= max) known.clear();
      known.set(input, output);
    }
    return output;
  };
}
