/**
 * The SVG sanitiser (issue 28): what it removes (images, scripts, foreign content, data: values, references to
 * anything but a local #id, style sheets that could load anything), what it clamps (filter parameters) and what
 * it refuses (entities, too many elements or filter primitives, <use> expansions), and the sizes it reads.
 */
import { describe, expect, it } from 'vitest';
import { resizedSvg, sanitiseSvg, svgDeclaredSize, SVG_LIMITS, SvgRefusedError } from '../../src/core/svg-sanitise.js';

const doc = (body: string, root = 'xmlns="http://www.w3.org/2000/svg" width="100" height="100"') => Buffer.from(`<svg ${root}>${body}</svg>`);
const clean = (body: string, root?: string) => sanitiseSvg(doc(body, root));

describe('sanitiseSvg removes', () => {
  it('<image>, <feImage>, <script>, <foreignObject>, animation and fonts, with everything inside them', () => {
    const out = clean(
      '<image href="https://t.example/p.png" width="10" height="10"/><script>alert(1)</script><foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>' +
        '<set attributeName="href" to="https://t.example/"/><animate attributeName="x"/><font-face/><filter id="f"><feImage href="#r"/><feFlood/></filter><rect id="r" width="5" height="5"/>',
    );
    expect(out.text).not.toMatch(/<image|<script|<foreignObject|<set|<animate|<font-face|<feImage|t\.example|alert/);
    expect(out.text).toContain('<rect id="r" width="5" height="5"/>');
    expect(out.text).toContain('<feFlood/>');
    expect(out.changes.removed).toBe(true);
  });

  it('a data: PNG, however it is spelled', () => {
    const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAATiAAAE4g';
    for (const body of [
      `<image href="${png}"/>`,
      `<rect width="1" height="1" fill="url(${png})"/>`,
      `<rect width="1" height="1" style="fill: url('${png}')"/>`,
      `<rect width="1" height="1" fill="url(D&#x41;TA:image/png;base64,AAAA)"/>`,
      `<use href=" ${png}"/>`,
    ]) {
      const out = clean(body);
      expect(out.text.toLowerCase()).not.toContain('data:');
      expect(out.changes.removed).toBe(true);
    }
  });

  it('href, xlink:href and url(...) to anything but a local #id, and event handlers', () => {
    const out = clean(
      '<a href="https://t.example/"><rect width="1" height="1" onclick="x()" fill="url(https://t.example/g.svg#g)" stroke="url(#g)"/></a>' +
        '<use xlink:href="other.svg#a"/><use href="#g"/><linearGradient id="g" href="//t.example/x"/>',
      'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"',
    );
    expect(out.text).not.toMatch(/t\.example|other\.svg|onclick/);
    expect(out.text).toContain('stroke="url(#g)"');
    expect(out.text).toContain('<use href="#g"/>');
    expect(out.text).toContain('<a>');
  });

  it('style sheets and style attributes that could load anything, keeping those that cannot', () => {
    expect(clean('<style>.a{fill:red}</style>').text).toContain('<style>.a{fill:red}</style>');
    for (const css of [
      '@import "https://t.example/x.css";',
      '.a{background:url(https://t.example/p.png)}',
      '.a{fill:u\\72l(https://t.example/p.png)}',
      '.a{cursor:image-set("https://t.example/p.png" 1x)}',
      '@font-face{src:local(x)}',
    ]) {
      const out = clean(`<style>${css}</style><rect width="1" height="1" style="${css.replace(/"/g, "'")}"/>`);
      expect(out.text).not.toMatch(/t\.example|@|image-set/);
      expect(out.changes.removed).toBe(true);
    }
  });

  it('a style sheet linked by a processing instruction, and content in another default namespace', () => {
    const out = sanitiseSvg(
      Buffer.from(
        '<?xml-stylesheet href="https://t.example/x.css"?><svg xmlns="http://www.w3.org/2000/svg"><g xmlns="http://www.w3.org/1999/xhtml"><img src="https://t.example/p.png"/></g></svg>',
      ),
    );
    expect(out.text).toBe('<svg xmlns="http://www.w3.org/2000/svg"><g/></svg>');
  });

  it('namespaces it does not know, and elements in them', () => {
    const out = clean(
      '<sodipodi:namedview/><x:thing/><rect width="1" height="1" inkscape:label="a"/>',
      'xmlns="http://www.w3.org/2000/svg" xmlns:x="https://t.example/ns"',
    );
    expect(out.text).toBe('<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>');
  });
});

describe('sanitiseSvg clamps filter parameters', () => {
  it('numOctaves to 4, stdDeviation to 100, morphology radii to 10, and says so', () => {
    const out = clean(
      '<filter id="f"><feTurbulence numOctaves="10"/><feGaussianBlur stdDeviation="300 5"/><feDropShadow stdDeviation="1000"/><feMorphology radius="400"/></filter>',
    );
    expect(out.text).toContain('numOctaves="4"');
    expect(out.text).toContain('stdDeviation="100 5"');
    expect(out.text).toContain('<feDropShadow stdDeviation="100"/>');
    expect(out.text).toContain('radius="10"');
    expect(out.changes).toEqual({ removed: false, simplified: true });
    expect(out.filtered).toBe(true);
  });

  it('leaves reasonable filters as they are', () => {
    const out = clean('<filter id="f"><feTurbulence numOctaves="2"/><feGaussianBlur stdDeviation="4"/></filter>');
    expect(out.changes).toEqual({ removed: false, simplified: false });
  });
});

describe('sanitiseSvg refuses', () => {
  const refused = (bytes: Buffer) => expect(() => sanitiseSvg(bytes)).toThrow(SvgRefusedError);

  it('more filter primitives than allowed, and a convolution kernel over 5x5', () => {
    expect(() => clean(`<filter id="f">${'<feFlood/>'.repeat(SVG_LIMITS.filterPrimitives)}</filter>`)).not.toThrow();
    refused(doc(`<filter id="f">${'<feFlood/>'.repeat(SVG_LIMITS.filterPrimitives + 1)}</filter>`));
    refused(doc('<filter id="f"><feConvolveMatrix order="9" kernelMatrix="1"/></filter>'));
  });

  it('more elements than allowed, as written or once every <use> is expanded, and a <use> of itself', () => {
    refused(doc('<g/>'.repeat(SVG_LIMITS.elements)));
    // Five levels of ten <use> each of the level below: 100,000 elements drawn from 52 written.
    let body = '<g id="l0"><rect width="1" height="1"/></g>';
    for (let level = 1; level <= 5; level++) body += `<g id="l${level}">${`<use href="#l${level - 1}"/>`.repeat(10)}</g>`;
    refused(doc(body));
    expect(() => clean(body.split('<g id="l4">')[0]!)).not.toThrow();
    refused(doc('<g id="a"><use href="#a"/></g>'));
  });

  it('entities it does not know, a DOCTYPE that defines any, and documents that are not well formed', () => {
    refused(Buffer.from('<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">]><svg xmlns="http://www.w3.org/2000/svg"><text>&a;</text></svg>'));
    refused(doc('<text>&a;</text>'));
    refused(doc('<g><rect></g>'));
    refused(doc('<rect width=1/>'));
    refused(Buffer.from('<html/>'));
    refused(Buffer.from([0x3c, 0x73, 0x76, 0x67, 0xff, 0x3e]));
    // A plain DOCTYPE, comments and an XML declaration are dropped.
    expect(
      sanitiseSvg(
        Buffer.from(
          '<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"><!-- c --><svg xmlns="http://www.w3.org/2000/svg"><text>a &amp; &#x42;</text></svg>',
        ),
      ).text,
    ).toBe('<svg xmlns="http://www.w3.org/2000/svg"><text>a &amp; B</text></svg>');
  });

  it('a document larger than 4 MiB, and one nested too deep', () => {
    refused(doc(`<desc>${'x'.repeat(SVG_LIMITS.bytes)}</desc>`));
    refused(doc('<g>'.repeat(SVG_LIMITS.depth) + '</g>'.repeat(SVG_LIMITS.depth)));
  });
});

describe('sanitiseSvg keeps a document readable', () => {
  it('declares the SVG namespace, and the xlink one when a local xlink:href stays, replacing a wrong one', () => {
    const out = sanitiseSvg(Buffer.from('<svg xmlns:xlink="https://t.example/not-xlink"><rect id="r"/><use xlink:href="#r"/></svg>'));
    expect(out.text).toBe('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><rect id="r"/><use xlink:href="#r"/></svg>');
  });

  it('leaves filter values it cannot read, and a small convolution kernel, as they are', () => {
    const out = clean('<filter id="f"><feTurbulence numOctaves="many"/><feConvolveMatrix order="3" kernelMatrix="0 0 0 0 1 0 0 0 0"/></filter>');
    expect(out.text).toContain('numOctaves="many"');
    expect(out.text).toContain('order="3"');
    expect(out.changes.simplified).toBe(false);
  });

  it('removes style values that could run or load anything', () => {
    for (const css of ['fill: red; background: da\\ta:x', 'width: expression(alert(1))', 'fill: javascript:x']) {
      const out = clean(`<rect width="1" height="1" style="${css}"/>`);
      expect(out.text).toBe('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="1" height="1"/></svg>');
    }
  });
});

describe('sizes', () => {
  it('reads the declared size in pixels: width and height with units, else the viewBox, else 1024 square', () => {
    expect(svgDeclaredSize(doc('', 'width="300" height="200px"'))).toEqual({ width: 300, height: 200 });
    expect(svgDeclaredSize(doc('', 'width="1in" height="72pt"'))).toEqual({ width: 96, height: 96 });
    expect(svgDeclaredSize(doc('', 'viewBox="0 0 800 400"'))).toEqual({ width: 800, height: 400 });
    expect(svgDeclaredSize(doc('', 'width="400" viewBox="0 0 800 400"'))).toEqual({ width: 400, height: 200 });
    expect(svgDeclaredSize(doc('', 'width="100%"'))).toEqual({ width: 1024, height: 1024 });
    expect(svgDeclaredSize(doc('', 'width="300"'))).toEqual({ width: 300, height: 300 });
    expect(svgDeclaredSize(doc('', 'height="300"'))).toEqual({ width: 300, height: 300 });
    expect(svgDeclaredSize(doc('', 'height="200" viewBox="0 0 800 400"'))).toEqual({ width: 400, height: 200 });
    expect(svgDeclaredSize(doc('', 'width="0" height="-5" viewBox="0 0 0 400"'))).toEqual({ width: 1024, height: 1024 });
    expect(svgDeclaredSize(doc('', 'width="294913" height="294913"'))).toEqual({ width: 294_913, height: 294_913 });
    expect(svgDeclaredSize(Buffer.from('not svg'))).toBeUndefined();
  });

  it('draws a document at the size asked, its content scaled by a viewBox of its declared size', () => {
    const out = sanitiseSvg(doc('<rect width="294912" height="294912"/>', 'xmlns="http://www.w3.org/2000/svg" width="294912" height="294912"'));
    const boxed = sanitiseSvg(doc('', 'xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 5"'));
    expect(resizedSvg(boxed, 2048, 1024)).toBe('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 5" width="2048" height="1024"/>');
    expect(resizedSvg(out, 2048, 2048)).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 294912 294912" width="2048" height="2048"><rect width="294912" height="294912"/></svg>',
    );
  });
});
