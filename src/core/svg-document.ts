/**
 * A small, strict reader of SVG documents (XML 1.0 as SVG uses it) into a tree, and its writer. No XML library is
 * installed (sharp's own libxml2/expat are not exposed), and what an SVG sanitiser needs is narrow: elements,
 * attributes, text, the five predefined entities and character references. Anything else that could make a parser
 * do work it was not asked for is refused rather than interpreted: a DOCTYPE with an internal subset (entity
 * definitions: billion laughs), an entity it does not know, a document too deep or with too many elements, bytes
 * that are not UTF-8. Comments, processing instructions and a plain DOCTYPE are dropped. Pure: no I/O, no sharp.
 */

/** An element: its name, its attributes in order, its children. */
export interface SvgElement {
  name: string;
  attributes: [string, string][];
  children: SvgNode[];
}

/** A child: an element or text (decoded; written escaped). */
export type SvgNode = SvgElement | string;

/** Why a document was refused. */
export class SvgDocumentError extends Error {
  override readonly name = 'SvgDocumentError';
}

/** Limits of {@link readSvg}. */
export interface ReadLimits {
  maxBytes: number;
  maxElements: number;
  maxDepth: number;
}

const NAME = /[A-Za-z_:][-A-Za-z0-9_:.]*/y;
const SPACE = /\s*/y;
const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Reads `bytes` into the root element (which must be `<svg>`); throws SvgDocumentError for anything it will not read. */
export function readSvg(bytes: Uint8Array, limits: ReadLimits): SvgElement {
  if (bytes.byteLength > limits.maxBytes) throw new SvgDocumentError(`larger than ${limits.maxBytes} bytes`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new SvgDocumentError('not UTF-8 text');
  }
  return new Reader(text.replace(/^\uFEFF/, ''), limits).document();
}

class Reader {
  private pos = 0;
  private elements = 0;
  private readonly text: string;
  private readonly limits: ReadLimits;

  constructor(text: string, limits: ReadLimits) {
    this.text = text;
    this.limits = limits;
  }

  document(): SvgElement {
    this.misc(true);
    if (!this.text.startsWith('<', this.pos)) throw new SvgDocumentError('no root element');
    const root = this.element(0);
    this.misc(false);
    if (this.pos < this.text.length) throw new SvgDocumentError('content after the root element');
    if (root.name !== 'svg') throw new SvgDocumentError('the root element is not <svg>');
    return root;
  }

  /** Whitespace, comments, processing instructions and (before the root) a DOCTYPE without an internal subset. */
  private misc(prolog: boolean): void {
    for (;;) {
      this.skipSpace();
      if (this.text.startsWith('<!--', this.pos)) this.skipPast('-->');
      else if (this.text.startsWith('<?', this.pos)) this.skipPast('?>');
      else if (prolog && this.text.startsWith('<!DOCTYPE', this.pos)) {
        const end = this.text.indexOf('>', this.pos);
        if (end < 0) throw new SvgDocumentError('unterminated DOCTYPE');
        if (this.text.slice(this.pos, end).includes('[')) throw new SvgDocumentError('a DOCTYPE with an internal subset');
        this.pos = end + 1;
      } else return;
    }
  }

  private element(depth: number): SvgElement {
    if (depth >= this.limits.maxDepth) throw new SvgDocumentError(`nested deeper than ${this.limits.maxDepth} elements`);
    if (++this.elements > this.limits.maxElements) throw new SvgDocumentError(`more than ${this.limits.maxElements} elements`);
    this.pos += 1; // '<'
    const name = this.name();
    const { attributes, closed } = this.attributes(name);
    return { name, attributes, children: closed ? [] : this.children(name, depth) };
  }

  /** The start tag's attributes, up to its `>` (or `/>`: `closed`). */
  private attributes(name: string): { attributes: [string, string][]; closed: boolean } {
    const attributes: [string, string][] = [];
    for (;;) {
      const spaced = this.skipSpace();
      if (this.text.startsWith('/>', this.pos)) {
        this.pos += 2;
        return { attributes, closed: true };
      }
      if (this.text.startsWith('>', this.pos)) {
        this.pos += 1;
        return { attributes, closed: false };
      }
      if (!spaced) throw new SvgDocumentError(`malformed tag <${name}>`);
      const attribute = this.name();
      this.skipSpace();
      this.expect('=');
      this.skipSpace();
      const quote = this.text[this.pos];
      if (quote !== '"' && quote !== "'") throw new SvgDocumentError(`unquoted attribute ${attribute}`);
      const end = this.text.indexOf(quote, this.pos + 1);
      if (end < 0) throw new SvgDocumentError(`unterminated attribute ${attribute}`);
      const raw = this.text.slice(this.pos + 1, end);
      if (raw.includes('<')) throw new SvgDocumentError(`'<' in attribute ${attribute}`);
      if (attributes.some(([n]) => n === attribute)) throw new SvgDocumentError(`attribute ${attribute} twice`);
      attributes.push([attribute, decodeEntities(raw)]);
      this.pos = end + 1;
    }
  }

  /** The element's content, up to and including its end tag. */
  private children(name: string, depth: number): SvgNode[] {
    const children: SvgNode[] = [];
    for (;;) {
      const next = this.text.indexOf('<', this.pos);
      if (next < 0) throw new SvgDocumentError(`<${name}> is not closed`);
      if (next > this.pos) children.push(decodeEntities(this.text.slice(this.pos, next)));
      this.pos = next;
      if (this.text.startsWith('</', this.pos)) {
        this.pos += 2;
        const closed = this.name();
        this.skipSpace();
        this.expect('>');
        if (closed !== name) throw new SvgDocumentError(`</${closed}> closes <${name}>`);
        return children;
      }
      if (this.text.startsWith('<!--', this.pos)) this.skipPast('-->');
      else if (this.text.startsWith('<?', this.pos)) this.skipPast('?>');
      else if (this.text.startsWith('<![CDATA[', this.pos)) {
        const end = this.text.indexOf(']]>', this.pos);
        if (end < 0) throw new SvgDocumentError('unterminated CDATA section');
        children.push(this.text.slice(this.pos + 9, end));
        this.pos = end + 3;
      } else if (this.text.startsWith('<!', this.pos)) throw new SvgDocumentError('a declaration inside the document');
      else children.push(this.element(depth + 1));
    }
  }

  private name(): string {
    NAME.lastIndex = this.pos;
    const match = NAME.exec(this.text);
    if (!match) throw new SvgDocumentError(`a name was expected at ${this.pos}`);
    this.pos = NAME.lastIndex;
    return match[0];
  }

  private skipSpace(): boolean {
    SPACE.lastIndex = this.pos;
    SPACE.exec(this.text);
    const moved = SPACE.lastIndex > this.pos;
    this.pos = SPACE.lastIndex;
    return moved;
  }

  private skipPast(end: string): void {
    const at = this.text.indexOf(end, this.pos);
    if (at < 0) throw new SvgDocumentError(`unterminated ${end}`);
    this.pos = at + end.length;
  }

  private expect(char: string): void {
    if (this.text[this.pos] !== char) throw new SvgDocumentError(`'${char}' was expected at ${this.pos}`);
    this.pos += 1;
  }
}

/** The five predefined entities and character references; any other entity is refused (there is no DTD to define it). */
function decodeEntities(raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&([^;&\s]{0,10});?/g, (whole, ref: string) => {
    if (!whole.endsWith(';')) throw new SvgDocumentError(`a bare '&'`);
    const predefined = PREDEFINED[ref];
    if (predefined !== undefined) return predefined;
    const code = /^#x[0-9a-f]{1,6}$/i.test(ref) ? parseInt(ref.slice(2), 16) : /^#[0-9]{1,7}$/.test(ref) ? parseInt(ref.slice(1), 10) : NaN;
    if (!Number.isInteger(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) throw new SvgDocumentError(`the entity &${ref};`);
    return String.fromCodePoint(code);
  });
}

/** The element as XML text (attribute values and text escaped). */
export function writeSvg(root: SvgElement): string {
  const out: string[] = [];
  const write = (node: SvgNode): void => {
    if (typeof node === 'string') {
      out.push(escapeText(node));
      return;
    }
    out.push('<', node.name);
    for (const [name, value] of node.attributes) out.push(' ', name, '="', escapeAttribute(value), '"');
    if (node.children.length === 0) {
      out.push('/>');
      return;
    }
    out.push('>');
    for (const child of node.children) write(child);
    out.push('</', node.name, '>');
  };
  write(root);
  return out.join('');
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(value: string): string {
  return escapeText(value).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
