import { describe, expect, it } from 'vitest';
import { ModelProfiles } from '../../src/core/model-profiles.js';
import { actionRequest, actionsOf, cellRect, enlargedSize, planCanvas } from '../../src/core/result-actions.js';

const profiles = new ModelProfiles();
const gptImage1 = profiles.of('gpt-image-1').profile;
const gptImage2 = profiles.of('gpt-image-2').profile;
const square = { width: 1024, height: 1024 };

describe('result actions', () => {
  it('offers what the model supports: nothing to edit for dall-e-3, no Enlarge where no larger size exists', () => {
    expect(actionsOf(profiles.of('dall-e-3').profile, square)).toEqual({ edits: false, masks: false, enlarge: false, hd: false });
    expect(actionsOf(profiles.of('dall-e-2').profile, square)).toEqual({ edits: false, masks: false, enlarge: false, hd: false });
    expect(actionsOf(gptImage1, square)).toEqual({ edits: true, masks: true, enlarge: false, hd: false });
    expect(actionsOf(gptImage2, square)).toEqual({ edits: true, masks: true, enlarge: true, hd: false });
  });

  it('pans onto the listed size of the nearest aspect, the original against the far side', () => {
    expect(planCanvas({ kind: 'pan', direction: 'right' }, square, gptImage1)).toEqual({
      size: { width: 1536, height: 1024 },
      placement: { left: 0, top: 0, width: 1024, height: 1024 },
    });
    expect(planCanvas({ kind: 'pan', direction: 'up' }, square, gptImage1)).toEqual({
      size: { width: 1024, height: 1536 },
      placement: { left: 0, top: 512, width: 1024, height: 1024 },
    });
    // A wide image panned right on listed sizes: the nearest aspect is 1536x1024, the canvas scaled into it.
    const wide = planCanvas({ kind: 'pan', direction: 'right' }, { width: 1536, height: 1024 }, gptImage1);
    expect(wide.size).toEqual({ width: 1536, height: 1024 });
    expect(wide.placement).toMatchObject({ left: 0, width: 1024 });
  });

  it('zooms out at the same size, the original scaled by the factor and centred; custom sizes follow the canvas', () => {
    expect(planCanvas({ kind: 'zoom', factor: 1.5 }, square, gptImage1).placement).toEqual({ left: 171, top: 171, width: 683, height: 683 });
    const panned = planCanvas({ kind: 'pan', direction: 'left' }, { width: 1536, height: 1024 }, gptImage2);
    expect(panned.size).toEqual({ width: 2304, height: 1024 });
    expect(panned.placement).toEqual({ left: 768, top: 0, width: 1536, height: 1024 });
  });

  it('enlarges to the largest non-experimental size at the aspect, and refuses where none is larger', () => {
    expect(enlargedSize(gptImage2, square)).toEqual({ width: 1920, height: 1920 });
    expect(() => actionRequest({ kind: 'enlarge' }, square, gptImage1, 'gpt-image-1')).toThrow('detail.model.nothingLarger(model=gpt-image-1, size=1024x1024)');
    expect(actionRequest({ kind: 'vary', strength: 'strong' }, square, gptImage1, 'gpt-image-1')).toEqual({
      size: { width: 1024, height: 1024 },
      inputFidelity: 'low',
    });
  });

  it('splits an image into a 3×3 grid of cells that cover it exactly', () => {
    const cells = Array.from({ length: 9 }, (_, cell) => cellRect(cell, square));
    expect(cells[4]).toEqual({ left: 341, top: 341, width: 342, height: 342 });
    expect(cells.reduce((sum, c) => sum + c.width * c.height, 0)).toBe(1024 * 1024);
  });
});
