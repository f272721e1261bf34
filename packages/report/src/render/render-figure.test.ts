import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { trainingFigure } from '../figures/figure-specs.js';
import { dejaVuSansFiles, pngFonts, renderPng, renderSvg } from './render-figure.js';

/** The PNG signature and the width and height of its IHDR chunk. */
function pngSize(png: Buffer): { signature: string; width: number; height: number } {
  return {
    signature: png.subarray(0, 8).toString('hex'),
    width: png.readUInt32BE(16),
    height: png.readUInt32BE(20),
  };
}

/** The RGBA pixels of a PNG file, decoded by resvg from an SVG image of it. */
function pngPixels(png: Buffer, width: number, height: number): Buffer {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><image width="${width}" height="${height}" href="data:image/png;base64,${png.toString('base64')}"/></svg>`;
  return new Resvg(svg, { font: { loadSystemFonts: false } }).render().pixels;
}

/** The pixels that are not white. */
function inkedPixels(pixels: Buffer): number {
  let count = 0;
  for (let i = 0; i < pixels.length; i += 4) {
    if (pixels[i] < 250 || pixels[i + 1] < 250 || pixels[i + 2] < 250) count++;
  }
  return count;
}

/** Whether resvg finds a system font: a line of text draws pixels. */
function hasSystemFont(): boolean {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="60" height="20"><rect width="60" height="20" fill="white"/><text x="2" y="15" font-family="sans-serif" font-size="12">χ² 1e-5</text></svg>';
  const found = inkedPixels(new Resvg(svg, { font: { loadSystemFonts: true } }).render().pixels);
  if (found === 0) console.warn('skipping the PNG text test: no system font for resvg to draw');
  return found > 0;
}

/** A training figure of two replicas: axes, titles, a legend. */
function figure() {
  const curves = [100, 200, 300].flatMap((epoch) =>
    ['replica 1', 'replica 2'].flatMap((replica) => [
      { replica, epoch, loss: 'training' as const, chi2: 1 + 100 / epoch },
      { replica, epoch, loss: 'validation' as const, chi2: 1.1 + 100 / epoch },
    ]),
  );
  const stops = [{ replica: 'replica 1', bestEpoch: 200, stopEpoch: 300 }];
  return trainingFigure(curves, stops);
}

describe('renderPng', () => {
  it('should draw the SVG at its size in pixels, not blank', async () => {
    const svg = await renderSvg(figure());
    const [, width, height] = /width="(\d+)" height="(\d+)"/.exec(svg)?.map(Number) ?? [];
    const png = renderPng(svg);
    expect(pngSize(png)).toEqual({ signature: '89504e470d0a1a0a', width, height });
    const pixels = pngPixels(png, width, height);
    // A white background and ink: the curves, axes, labels and legend.
    expect([...pixels.subarray(0, 4)]).toEqual([255, 255, 255, 255]);
    expect(inkedPixels(pixels)).toBeGreaterThan(0.01 * width * height);
  });

  it.skipIf(!hasSystemFont())('should draw the text in a system font', async () => {
    const svg = await renderSvg(figure());
    const [, width, height] = /width="(\d+)" height="(\d+)"/.exec(svg)?.map(Number) ?? [];
    const withText = inkedPixels(pngPixels(renderPng(svg), width, height));
    const withoutFonts = new Resvg(svg, { font: { loadSystemFonts: false } }).render().pixels;
    // The axis titles and labels and the legend are text: hundreds of pixels more ink.
    expect(withText - inkedPixels(withoutFonts)).toBeGreaterThan(500);
  });
});

describe('the PNG fonts', () => {
  it("should find DejaVu Sans's styles in nested font folders, the first of each name", async () => {
    const root = await mkdtemp(join(tmpdir(), 'partonfit-fonts-'));
    const [system, user] = [join(root, 'system'), join(root, 'user')];
    const files = [
      join(system, 'truetype', 'dejavu', 'DejaVuSans.ttf'),
      join(system, 'truetype', 'dejavu', 'DejaVuSans-Bold.ttf'),
      join(system, 'truetype', 'dejavu', 'DejaVuSansMono.ttf'),
      join(system, 'truetype', 'dejavu', 'DejaVuSansCondensed.ttf'),
      join(system, 'truetype', 'dejavu', 'DejaVuSerif.ttf'),
      join(user, 'DejaVuSans.ttf'),
      join(user, 'DejaVuSans-Oblique.ttf'),
    ];
    for (const file of files) {
      await mkdir(join(file, '..'), { recursive: true });
      await writeFile(file, '');
    }
    const found = dejaVuSansFiles([user, join(root, 'no-such-folder'), system]);
    expect(found.sort()).toEqual([files[1], files[5], files[6]].sort());
    expect(dejaVuSansFiles([join(root, 'no-such-folder')])).toEqual([]);
    await rm(root, { recursive: true });
  });

  it("should load DejaVu Sans's files alone when there are any, else scan the system's fonts", () => {
    const family = { defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans' };
    expect(pngFonts(['/fonts/DejaVuSans.ttf'])).toEqual({
      loadSystemFonts: false,
      fontFiles: ['/fonts/DejaVuSans.ttf'],
      ...family,
    });
    expect(pngFonts([])).toEqual({ loadSystemFonts: true, ...family });
  });

  const installed = dejaVuSansFiles();
  if (installed.length === 0)
    console.warn('skipping the DejaVu Sans PNG test: it is not installed');

  it.skipIf(installed.length === 0)(
    "should draw the same pixels from DejaVu Sans's files as from all the system's fonts",
    async () => {
      const svg = await renderSvg(figure());
      const fromSystem = new Resvg(svg, { font: pngFonts([]) }).render().asPng();
      expect(renderPng(svg).equals(fromSystem)).toBe(true);
    },
  );
});
