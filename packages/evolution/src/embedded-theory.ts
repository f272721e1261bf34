import { parseTheoryCard, readTheoryCard, type TheoryCard } from './theory-card.js';

/**
 * The theory of the embedded closure fit (`examples/closure.yml`, whose FK tables are LO DIS at
 * the Les Houches toy PDF's Q0 = √2 GeV with four light flavours): LO, exact solution, with the
 * Les Houches benchmark's coupling and heavy masses (hep-ph/0204316, hep-ph/0511119):
 * αs(√2 GeV) = 0.35, mb = 4.5 GeV, mt = 175 GeV, at most 5 active flavours as NNPDF's sets. Charm
 * is fitted at Q0 (the closure fit fits T15), so the card has `IC: 1` and its charm threshold
 * below Q0 (mc = 1.3 GeV, where the benchmark puts it at Q0 and starts charm from zero); at LO the
 * charm mass then only sets αs below Q0, which the evolution never uses.
 */
export const TOY_LH_LO_THEORY = 'toyLH-LO';

const EMBEDDED_CARDS: Readonly<Partial<Record<string, string>>> = {
  [TOY_LH_LO_THEORY]: `PTO: 0
ModEv: EXA
IC: 1
HQ: POLE
QED: 0
MaxNfAs: 5
MaxNfPdf: 5
Q0: 1.4142135623730951
alphas: 0.35
Qref: 1.4142135623730951
mc: 1.3
kcThr: 1.0
mb: 4.5
kbThr: 1.0
mt: 175.0
ktThr: 1.0
`,
};

/** The names of the theory cards embedded in this package. */
export const EMBEDDED_THEORY_NAMES: readonly string[] = Object.keys(EMBEDDED_CARDS);

/**
 * A theory card embedded in this package by name ({@link EMBEDDED_THEORY_NAMES}), or undefined
 * for another name. Its `file` is `embedded theory card <name>`, which errors name.
 */
export function embeddedTheoryCard(name: string): TheoryCard | undefined {
  const text = EMBEDDED_CARDS[name];
  return text === undefined ? undefined : parseTheoryCard(text, `embedded theory card ${name}`);
}

/**
 * The theory card an embedded name ({@link EMBEDDED_THEORY_NAMES}) stands for, or else the card
 * read from the file of that path.
 *
 * @param nameOrFile - `toyLH-LO`, or a theory card's path
 * @throws InputFileError as {@link readTheoryCard}
 *
 * @example
 * ```ts
 * import { loadTheoryCard } from '@partonfit/evolution';
 *
 * const card = await loadTheoryCard('toyLH-LO');
 * console.log(card.order, card.q0); // 0 1.4142135623730951
 * ```
 */
export async function loadTheoryCard(nameOrFile: string): Promise<TheoryCard> {
  return embeddedTheoryCard(nameOrFile) ?? readTheoryCard(nameOrFile);
}
