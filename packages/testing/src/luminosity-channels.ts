/**
 * `count` luminosity channels cycling through the flavour pairs, the first flavour varying
 * fastest — the channels of synthetic hadronic FK tables in the luminosity-kernel tests.
 *
 * @returns `(channel)` pairs `[first, second]`, each an index in `[0, flavours)`
 */
export function cyclingChannels(flavours: number, count: number): [number, number][] {
  return Array.from({ length: count }, (_, c): [number, number] => [
    c % flavours,
    Math.floor(c / flavours) % flavours,
  ]);
}
