import { describe, expect, it } from 'vitest';
import { inputFileError } from '@partonfit/testing';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { parseTheoryCard, readTheoryCard } from './theory-card.js';

const hasCard = hasSharedData('theory_cards/200.yaml', 'theory card 200');

const CARD = `ID: 7
PTO: 1
IC: 0
ModEv: EXA
XIR: 1.0
XIF: 1.0
MaxNfAs: 5
MaxNfPdf: 5
Q0: 1.65
alphas: 0.118
Qref: 91.2
QED: 0
HQ: POLE
mc: 1.51
kcThr: 1.0
mb: 4.92
kbThr: 1.0
mt: 172.5
ktThr: 1.0
`;

const problemOf = (text: string) => inputFileError(() => parseTheoryCard(text, 'card.yaml'));

describe.skipIf(!hasCard)('readTheoryCard on NNPDF theory 200', () => {
  it('should read the NNLO settings NNPDF4.0 used', async () => {
    const card = await readTheoryCard(`${SHARED_DATA}theory_cards/200.yaml`);
    expect(card).toMatchObject({
      id: 200,
      order: 2,
      alphaSRef: 0.118,
      qRef: 91.2,
      q0: 1.65,
      masses: { charm: 1.51, bottom: 4.92, top: 172.5 },
      thresholdRatios: { charm: 1, bottom: 1, top: 1 },
      maxNfAlphaS: 5,
      maxNfPdf: 5,
      intrinsicCharm: true,
      evolutionMethod: 'TRN',
    });
  });
});

describe('parseTheoryCard', () => {
  it('should read every evolution setting', () => {
    expect(parseTheoryCard(CARD, 'card.yaml')).toMatchObject({
      id: 7,
      order: 1,
      intrinsicCharm: false,
      evolutionMethod: 'EXA',
    });
  });

  it('should refuse MSbar masses naming the card, line and key', () => {
    const error = problemOf(CARD.replace('HQ: POLE', 'HQ: MSBAR'));
    expect(error).toMatchObject({ file: 'card.yaml', line: 13, key: 'HQ' });
    expect(error.message).toContain('MSbar masses are not supported');
  });

  it('should refuse QED, scale variations and unknown solution methods', () => {
    expect(problemOf(CARD.replace('QED: 0', 'QED: 1')).key).toBe('QED');
    expect(problemOf(CARD.replace('XIR: 1.0', 'XIR: 2.0')).key).toBe('XIR');
    expect(problemOf(CARD.replace('ModEv: EXA', 'ModEv: EXP')).message).toContain(
      'card.yaml:4: ModEv: "EXP" is not supported; expected one of EXA, TRN',
    );
  });

  it('should name a missing or malformed key', () => {
    expect(problemOf(CARD.replace('mb: 4.92\n', '')).message).toBe('card.yaml: mb: missing');
    expect(problemOf(CARD.replace('PTO: 1', 'PTO: 3')).message).toBe(
      'card.yaml:2: PTO: expected an integer from 0 to 2, got 3',
    );
    expect(problemOf(CARD.replace('alphas: 0.118', 'alphas: high')).key).toBe('alphas');
    expect(problemOf(CARD.replace('mb: 4.92', 'mb: 200')).key).toBe('mb');
  });

  it('should read the flavours αs(Qref) is given in, on a threshold the lower one too', () => {
    expect(parseTheoryCard(CARD, 'card.yaml').alphaSRefFlavours).toBeUndefined();
    expect(parseTheoryCard(`${CARD}nfref: null\n`, 'card.yaml').alphaSRefFlavours).toBeUndefined();
    expect(parseTheoryCard(`${CARD}nfref: 5\n`, 'card.yaml').alphaSRefFlavours).toBe(5);
    const onCharm = CARD.replace('Qref: 91.2', 'Qref: 1.51');
    expect(parseTheoryCard(`${onCharm}nfref: 3\n`, 'card.yaml').alphaSRefFlavours).toBe(3);
    const error = problemOf(`${CARD}nfref: 4\n`);
    expect(error).toMatchObject({ line: 20, key: 'nfref' });
    expect(error.message).toContain('4 flavours do not apply at Qref = 91.2 GeV; expected 5');
    expect(problemOf(`${onCharm}nfref: 5\n`).message).toContain('expected 4 or 3');
  });

  it('should read a fixed-flavour-number scheme from FNS: FFNS and NfFF', () => {
    const ffns = parseTheoryCard(`${CARD}FNS: FFNS\nNfFF: 4\nnfref: 4\n`, 'card.yaml');
    expect(ffns).toMatchObject({ fixedFlavours: 4, alphaSRefFlavours: 4 });
    const fonll = parseTheoryCard(`${CARD}FNS: FONLL-C\nNfFF: 4\n`, 'card.yaml');
    expect(fonll.fixedFlavours).toBeUndefined();
    expect(problemOf(`${CARD}FNS: FFNS\n`).message).toBe('card.yaml: NfFF: missing');
    expect(problemOf(`${CARD}FNS: FFNS\nNfFF: 4\nnfref: 5\n`).key).toBe('nfref');
  });
});
