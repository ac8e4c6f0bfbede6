/**
 * The text of a result card as a member reads it: its text displays, in order, one per line.
 */
import { resultCard } from '../../src/discord/views/result-card.js';
import type { Delivery } from '../../src/core/jobs.js';

/** Every `content` of the card's text displays (inside containers too), joined by newlines. */
export function cardText(delivery: Delivery, part: { index: number; total: number } = { index: 1, total: 1 }): string {
  const card = resultCard(delivery, [{ name: 'image-1.png' }], { ...part, firstImage: 0 });
  const texts: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node !== null && typeof node === 'object') {
      const { type, content, components } = node as { type?: number; content?: unknown; components?: unknown };
      if (type === 10 && typeof content === 'string') texts.push(content);
      visit(components);
    }
  };
  visit(card.components);
  return texts.join('\n');
}
