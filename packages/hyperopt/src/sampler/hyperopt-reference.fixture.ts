/**
 * Reference numbers from hyperopt itself, to check this sampler against: its source at 0.3.0
 * (whose `tpe.py`, `rand.py` and `pyll_utils.py` are 0.2.7's up to formatting and a
 * `numpy.random.Generator`), run with numpy 2.4 and scipy 1.17, with one compatibility fix
 * (`pyll.rec_eval` accepting the numpy integers numpy 2 returns as a switch index). The
 * histories are the trials of `fmin(…, algo=rand.suggest, rstate=numpy.random.default_rng(seed))`;
 * the quantiles are those of 4000 suggestions `tpe.suggest([1000], domain, trials, seed)` for
 * seeds 0…3999, one point each (hyperopt's own seeds, so only the distributions can be compared,
 * not the draws).
 */
import type { ScoredPoint } from './tpe.js';

/** The probabilities of {@link BRANIN_QUANTILES} and {@link CONDITIONAL_QUANTILES}. */
export const QUANTILE_PROBABILITIES = [0.05, 0.25, 0.5, 0.75, 0.95] as const;

/**
 * 40 random trials of Branin on `{ x1: hp.uniform('x1', -5, 10), x2: hp.uniform('x2', 0, 15) }`
 * (`rand.suggest`, seed 3).
 */
export const BRANIN_HISTORY: readonly ScoredPoint[] = [
  { point: { x1: 4.805369377708022, x2: 13.239829548146066 }, loss: 152.61432548477265 },
  { point: { x1: 6.016782066892008, x2: 12.105376085113596 }, loss: 140.3665390783781 },
  { point: { x1: -2.0660553830857493, x2: 3.953545959892844 }, loss: 40.0828930168648 },
  { point: { x1: 8.718483571893236, x2: 12.205668906819568 }, loss: 108.00360967979887 },
  { point: { x1: 6.259750221510263, x2: 5.547470455741679 }, loss: 39.38547412184967 },
  { point: { x1: 6.913840149556547, x2: 2.1424567679140245 }, loss: 18.697910730039673 },
  { point: { x1: -4.815510444226196, x2: 6.344151979078029 }, loss: 117.40103810135552 },
  { point: { x1: 5.949267359951417, x2: 2.9331894832756085 }, loss: 22.41850106825489 },
  { point: { x1: 3.8888792755403916, x2: 5.351688368248606 }, loss: 15.825410109028176 },
  { point: { x1: 1.5259205141174963, x2: 5.04282070113146 }, loss: 11.801064928108536 },
  { point: { x1: 3.8788418328904353, x2: 5.468112689397334 }, loss: 16.56542896763702 },
  { point: { x1: -4.613368249900181, x2: 8.256108884386233 }, loss: 70.44972539291433 },
  { point: { x1: 7.1714900003044875, x2: 7.266967101398048 }, loss: 52.49872368324819 },
  { point: { x1: 6.287580583675043, x2: 10.05424296824165 }, loss: 99.77793685021976 },
  { point: { x1: -4.399074255199194, x2: 9.559823019707105 }, loss: 42.341692904460324 },
  { point: { x1: -3.003784703025152, x2: 8.81656972668641 }, loss: 10.283930303490507 },
  { point: { x1: 6.378136227558169, x2: 6.797709641016879 }, loss: 51.975059673263075 },
  { point: { x1: 6.944124033963172, x2: 12.041966354425789 }, loss: 135.61731747861933 },
  { point: { x1: 0.14329179238026768, x2: 3.5231327206413536 }, loss: 24.572792545988676 },
  { point: { x1: -0.6043605807853396, x2: 13.392733047742988 }, loss: 58.65259875163582 },
  { point: { x1: -0.06251651555657034, x2: 5.679544632048829 }, loss: 19.760139968426145 },
  { point: { x1: 1.8328065428214737, x2: 5.275932760296427 }, loss: 10.606849079978065 },
  { point: { x1: 8.67569438807952, x2: 2.917805698220814 }, loss: 3.972620128886172 },
  { point: { x1: 3.4941569521291864, x2: 9.103916605755549 }, loss: 51.22555058126388 },
  { point: { x1: -1.2855544667990806, x2: 1.7670335962820916 }, loss: 54.85431767334688 },
  { point: { x1: 1.0721286668053143, x2: 14.839967503117258 }, loss: 122.70694547286236 },
  { point: { x1: 9.033213203658695, x2: 13.870189321575968 }, loss: 138.1474821452577 },
  { point: { x1: -3.957179554187142, x2: 5.2314047573084865 }, loss: 86.038730720778 },
  { point: { x1: 3.4343844780323245, x2: 11.858064553599743 }, loss: 96.85293243395856 },
  { point: { x1: 9.724890345132094, x2: 9.188595893788362 }, loss: 42.414213281807356 },
  { point: { x1: 3.972263654983484, x2: 3.28446251155226 }, loss: 5.983553948283455 },
  { point: { x1: 5.124691995621461, x2: 7.21527408384679 }, loss: 49.593461251046556 },
  { point: { x1: 0.1167745068690671, x2: 9.89416807522969 }, loss: 36.16891390842417 },
  { point: { x1: 7.770093186090474, x2: 4.401994786754248 }, loss: 19.61982958821236 },
  { point: { x1: 0.18510300920510758, x2: 7.170725249151348 }, loss: 21.572310169167547 },
  { point: { x1: -0.3885797475914803, x2: 5.836632838916855 }, loss: 19.52836598545735 },
  { point: { x1: 4.06695781198982, x2: 13.656342243640662 }, loss: 148.0409994670085 },
  { point: { x1: 3.294715163509373, x2: 13.009898298203503 }, loss: 118.26058644204433 },
  { point: { x1: -2.1819197411462943, x2: 6.085100693215382 }, loss: 20.51083563105469 },
  { point: { x1: 5.39178914863032, x2: 4.039151993006959 }, loss: 24.240785863759818 },
];

/** Quantiles of hyperopt's TPE suggestions (default settings) after {@link BRANIN_HISTORY}. */
export const BRANIN_QUANTILES = {
  x1: [7.84597391584647, 8.1081807988023, 8.255811673889998, 8.531153221850934, 9.967870187764888],
  x2: [
    0.024229642834080113, 0.13238169782887077, 0.308247548765743, 0.6008293928636292,
    1.1616563508310953,
  ],
} as const;

/**
 * hyperopt's `GMM1_lpdf` of the good and bad estimators of x1 after {@link BRANIN_HISTORY}
 * (2 good trials, 38 bad ones: linear forgetting weighs the 13 oldest less), at
 * {@link BRANIN_X1_POINTS}.
 */
export const BRANIN_X1_POINTS = [-4.5, -3.0, 0.0, 2.5, 3.1, 7.0, 9.4, 9.99] as const;
export const BRANIN_X1_LOG_DENSITIES = {
  good: [
    -3.7861321752799233, -3.4867472312941477, -2.9144052549004815, -2.5662354644886873,
    -2.506746254568447, -2.37142533009635, -2.5108873800306934, -2.571249117650643,
  ],
  bad: [
    -2.4393527915449544, -3.3469383652650224, -1.8424749883532627, -3.394694145889346,
    -2.561032867908853, -2.3165400416928, -3.2319841200924757, -3.593117259937636,
  ],
} as const;

/**
 * 60 random trials (`rand.suggest`, seed 11) of a conditional space,
 * `{ opt: hp.choice('opt', [{ lr: hp.loguniform('a_lr', ln 1e-4, ln 1e-1) }, { lr:
 * hp.loguniform('b_lr', ln 1e-4, ln 1e-1), m: hp.uniform('m', 0, 1) }, 'none']), units:
 * hp.quniform('units', 1, 30, 4) }`, with loss `(log10 lr + 2.5)² + (0.5 (m − 0.7)² or 0.3) +
 * ((units − 13)/10)²`, or `1 + ((units − 13)/10)²` for `'none'`.
 */
export const CONDITIONAL_HISTORY: readonly ScoredPoint[] = [
  {
    point: { opt: 1, b_lr: 0.0038879678396162728, m: 0.6488160991075982, units: 24 },
    loss: 1.2193600522697472,
  },
  { point: { opt: 0, a_lr: 0.020407956190725135, units: 16 }, loss: 1.0457752517621084 },
  {
    point: { opt: 1, b_lr: 0.004081150952296375, m: 0.243595980134235, units: 4 },
    loss: 0.9264251121245585,
  },
  { point: { opt: 2, units: 12 }, loss: 1.01 },
  { point: { opt: 2, units: 8 }, loss: 1.25 },
  { point: { opt: 2, units: 20 }, loss: 1.49 },
  { point: { opt: 0, a_lr: 0.00014209101847413155, units: 24 }, loss: 3.3255766941736127 },
  {
    point: { opt: 1, b_lr: 0.0006747628260303062, m: 0.18947039884305705, units: 20 },
    loss: 1.070358418433659,
  },
  {
    point: { opt: 1, b_lr: 0.009468401770642624, m: 0.7176252702188111, units: 8 },
    loss: 0.4769947990549717,
  },
  { point: { opt: 0, a_lr: 0.00012666568840010768, units: 12 }, loss: 2.2625619044887233 },
  {
    point: { opt: 1, b_lr: 0.008587330313456718, m: 0.9071879307097664, units: 20 },
    loss: 0.6996963296450395,
  },
  {
    point: { opt: 1, b_lr: 0.0017765337448369298, m: 0.4888598189252431, units: 20 },
    loss: 0.5750035393553052,
  },
  {
    point: { opt: 1, b_lr: 0.0015164728797480178, m: 0.45817761681996205, units: 24 },
    loss: 1.3411055544886614,
  },
  {
    point: { opt: 1, b_lr: 0.0047872959881259955, m: 0.9697901028308754, units: 16 },
    loss: 0.15882585867039,
  },
  { point: { opt: 0, a_lr: 0.0022136696467424176, units: 28 }, loss: 2.5739900415723773 },
  {
    point: { opt: 1, b_lr: 0.0025589088353292037, m: 0.6043188277660168, units: 24 },
    loss: 1.2230313606216234,
  },
  { point: { opt: 2, units: 20 }, loss: 1.49 },
  {
    point: { opt: 1, b_lr: 0.07743391750422814, m: 0.36384277222442674, units: 28 },
    loss: 4.235630806627157,
  },
  { point: { opt: 0, a_lr: 0.02715467560175393, units: 16 }, loss: 1.2620657723268367 },
  { point: { opt: 2, units: 16 }, loss: 1.09 },
  { point: { opt: 0, a_lr: 0.0017814916373277126, units: 20 }, loss: 0.85210872030964 },
  {
    point: { opt: 1, b_lr: 0.006911242338290812, m: 0.7466262966883865, units: 20 },
    loss: 0.6063853654155581,
  },
  { point: { opt: 2, units: 4 }, loss: 1.81 },
  { point: { opt: 2, units: 4 }, loss: 1.81 },
  {
    point: { opt: 1, b_lr: 0.00018569896740244378, m: 0.5355187094656645, units: 16 },
    loss: 1.6193571223149628,
  },
  {
    point: { opt: 1, b_lr: 0.007084262172574312, m: 0.22203261617271186, units: 12 },
    loss: 0.24693273435797636,
  },
  { point: { opt: 2, units: 24 }, loss: 2.21 },
  { point: { opt: 0, a_lr: 0.005978964784370676, units: 28 }, loss: 2.6265219413684187 },
  {
    point: { opt: 1, b_lr: 0.04020998613770223, m: 0.3532903829580719, units: 8 },
    loss: 1.5296571936046193,
  },
  {
    point: { opt: 1, b_lr: 0.008939488705749725, m: 0.1681684364350552, units: 24 },
    loss: 1.555105541152352,
  },
  {
    point: { opt: 1, b_lr: 0.0006091313849682699, m: 0.8730626275495317, units: 20 },
    loss: 1.0166137233437003,
  },
  {
    point: { opt: 1, b_lr: 0.006513303161838962, m: 0.24292974587865135, units: 20 },
    loss: 0.6929278600211822,
  },
  { point: { opt: 0, a_lr: 0.08578621767259695, units: 28 }, loss: 4.604685787040111 },
  { point: { opt: 2, units: 0 }, loss: 2.6900000000000004 },
  {
    point: { opt: 1, b_lr: 0.0004995451671962456, m: 0.539906453709731, units: 12 },
    loss: 0.6650973842286549,
  },
  {
    point: { opt: 1, b_lr: 0.0003753739365925951, m: 0.541035849672499, units: 16 },
    loss: 0.9592514751826814,
  },
  { point: { opt: 0, a_lr: 0.00016430767127178836, units: 4 }, loss: 2.759534782802594 },
  {
    point: { opt: 1, b_lr: 0.00023591255994495576, m: 0.07465260932185458, units: 20 },
    loss: 1.9562198448815025,
  },
  { point: { opt: 0, a_lr: 0.00097209377801414, units: 20 }, loss: 1.0524429258543186 },
  { point: { opt: 2, units: 8 }, loss: 1.25 },
  {
    point: { opt: 1, b_lr: 0.00011959899583236481, m: 0.5952731146468132, units: 12 },
    loss: 2.038342829851383,
  },
  { point: { opt: 2, units: 28 }, loss: 3.25 },
  { point: { opt: 0, a_lr: 0.06749954012881562, units: 28 }, loss: 4.317040654136356 },
  { point: { opt: 2, units: 24 }, loss: 2.21 },
  { point: { opt: 0, a_lr: 0.001265651612589017, units: 8 }, loss: 0.7081540139670459 },
  {
    point: { opt: 1, b_lr: 0.04942859937237259, m: 0.5651758153115747, units: 28 },
    loss: 3.6846729715304125,
  },
  { point: { opt: 0, a_lr: 0.00067150562791833, units: 8 }, loss: 1.0028621643305962 },
  { point: { opt: 2, units: 12 }, loss: 1.01 },
  { point: { opt: 2, units: 0 }, loss: 2.6900000000000004 },
  {
    point: { opt: 1, b_lr: 0.00010357954143108889, m: 0.6306152847315908, units: 16 },
    loss: 2.2968184620296723,
  },
  {
    point: { opt: 1, b_lr: 0.03925478973813689, m: 0.2276181038094579, units: 12 },
    loss: 1.3181734696251348,
  },
  { point: { opt: 0, a_lr: 0.005992112525802105, units: 8 }, loss: 0.627050634403639 },
  {
    point: { opt: 1, b_lr: 0.0008237809156986797, m: 0.29960183215458114, units: 12 },
    loss: 0.43143528523349745,
  },
  {
    point: { opt: 1, b_lr: 0.0037371155014342284, m: 0.5625792378978115, units: 20 },
    loss: 0.504703779750768,
  },
  { point: { opt: 0, a_lr: 0.0029410663689468652, units: 28 }, loss: 2.5509919460463 },
  { point: { opt: 0, a_lr: 0.024160998876136434, units: 8 }, loss: 1.3298919003568903 },
  {
    point: { opt: 1, b_lr: 0.001380428693844679, m: 0.2519578563438998, units: 24 },
    loss: 1.4399608172538327,
  },
  { point: { opt: 2, units: 24 }, loss: 2.21 },
  { point: { opt: 0, a_lr: 0.07860066046145416, units: 8 }, loss: 2.497214266588993 },
  {
    point: { opt: 1, b_lr: 0.0668354688005928, m: 0.6884245087116988, units: 16 },
    loss: 1.8457105424653915,
  },
];

/**
 * hyperopt's TPE suggestions after {@link CONDITIONAL_HISTORY} with `n_EI_candidates=3`: how
 * often each option of `opt` was chosen, and the quantiles of `b_lr` and `m` (in the 3741 of
 * 4000 suggestions that chose option 1).
 */
export const CONDITIONAL_OPT_FREQUENCIES = [0.00725, 0.93525, 0.0575] as const;
export const CONDITIONAL_QUANTILES = {
  b_lr: [
    0.0014263463944530579, 0.004021351723060616, 0.011739139752361986, 0.019773760903015775,
    0.031555383123591435,
  ],
  m: [
    0.01992838854650225, 0.09455867880949587, 0.3733090468379485, 0.7987612031379876,
    0.9774630988639565,
  ],
} as const;
export const CONDITIONAL_B_LR_SUGGESTIONS = 3741;

/**
 * hyperopt's `GMM1_lpdf` (q = 4) of the good and bad estimators of `units` after
 * {@link CONDITIONAL_HISTORY} at the bins 0, 4, …, 28, computed with `numpy.argsort(…,
 * kind='stable')` in `adaptive_parzen_normal`: hyperopt's default (unstable) sort orders tied
 * observations as numpy's introsort leaves them, which changes which linear-forgetting weight
 * goes with which width among tied values of a quantised label.
 */
export const UNITS_LOG_MASSES = {
  good: [
    -4.0620038752975365, -2.296136552760677, -1.8378957659446802, -1.5959637883851396,
    -1.5951146108023633, -1.8347156629989634, -2.288087235289087, -2.8776109494774107,
  ],
  bad: [
    -5.1011421625024, -2.820513243127757, -1.714459570413831, -1.9893381708174276,
    -2.080735703483735, -1.6801055048884037, -1.9826911550736608, -1.7802433962873243,
  ],
} as const;
