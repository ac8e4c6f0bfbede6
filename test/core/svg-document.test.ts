/**
 * The strict SVG reader (issue 28): what it reads, what it drops, and every shape it refuses rather than interpret.
 */
import { describe, expect, it } from 'vitest';
import { readSvg, SvgDocumentError, writeSvg } from '../../src/core/svg-document.js';

const LIMITS = { maxBytes: 10_000, maxElements: 20, maxDepth: 4 };
const read = (text: string) => readSvg(Buffer.from(text), LIMITS);

describe('readSvg', () => {
  it('reads elements, attributes in either quotes, text, CDATA and character references, and writes them back escaped', () => {
    const root = read(
      `\uFEFF<?xml version="1.0"?>\n<!-- a -->\n<svg a='1' b="x&lt;&#65;&#x42;&quot;"><text>1 &amp; 2<![CDATA[ <3 ]]></text><?pi x?><!-- b --><g /></svg>\n<!-- end -->`,
    );
    expect(root.attributes).toEqual([
      ['a', '1'],
      ['b', 'x<AB"'],
    ]);
    expect(writeSvg(root)).toBe('<svg a="1" b="x&lt;AB&quot;"><text>1 &amp; 2 &lt;3 </text><g/></svg>');
  });

  it('writes line breaks and tabs in attribute values as character references', () => {
    expect(writeSvg({ name: 'svg', attributes: [['d', 'M0 0\n\tL1 1\r']], children: [] })).toBe('<svg d="M0 0&#10;&#9;L1 1&#13;"/>');
  });

  it.each([
    ['a DOCTYPE with an internal subset', '<!DOCTYPE svg [<!ENTITY x "y">]><svg/>'],
    ['an unterminated DOCTYPE', '<!DOCTYPE svg'],
    ['an unterminated comment', '<svg><!-- x</svg>'],
    ['an unterminated processing instruction', '<?xml version="1.0"'],
    ['an unterminated CDATA section', '<svg><text><![CDATA[ x</text></svg>'],
    ['a declaration inside the document', '<svg><!ELEMENT x ANY></svg>'],
    ['no root element', '<!-- nothing -->'],
    ['content after the root', '<svg/><svg/>'],
    ['a root that is not svg', '<html/>'],
    ['an unclosed element', '<svg><g>'],
    ['a mismatched close', '<svg><g></svg></g>'],
    ['a malformed tag', '<svg a="1"b="2"/>'],
    ['an unquoted attribute', '<svg a=1/>'],
    ['an unterminated attribute', '<svg a="1/>'],
    ["'<' in an attribute", '<svg a="<"/>'],
    ['an attribute twice', '<svg a="1" a="2"/>'],
    ['a missing =', '<svg a "1"/>'],
    ['a bad name', '<svg><1/></svg>'],
    ['a bare &', '<svg><text>a & b</text></svg>'],
    ['an unknown entity', '<svg><text>&nbsp;</text></svg>'],
    ['a surrogate character reference', '<svg><text>&#xD800;</text></svg>'],
    ['a character reference past Unicode', '<svg><text>&#x110000;</text></svg>'],
    ['too many elements', `<svg>${'<g/>'.repeat(20)}</svg>`],
    ['nesting too deep', '<svg><g><g><g><g/></g></g></g></svg>'],
    ['too many bytes', `<svg>${' '.repeat(10_000)}</svg>`],
  ])('refuses %s', (_name, text) => {
    expect(() => read(text)).toThrow(SvgDocumentError);
  });
});
