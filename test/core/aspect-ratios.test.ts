import { describe, expect, it } from 'vitest';
import { applyRatio, planRatio, ratiosOf, ratioValue, resolutionsOf } from '../../src/core/aspect-ratios.js';
import { ASPECT_RATIOS, type GenerateRequest, RESOLUTIONS } from '../../src/core/image-request.js';
import { ImageInputError } from '../../src/core/image-rules.js';
import { ModelProfiles } from '../../src/core/model-profiles.js';
import { sizeProblem } from '../../src/core/sizes.js';
import { buildWireParams, wireValue } from '../../src/gateway/params.js';

const profiles = new ModelProfiles();
const of = (model: string) => profiles.of(model).profile;

describe('ratios and resolutions as sizes', () => {
  it.each(ASPECT_RATIOS.flatMap((ratio) => RESOLUTIONS.map((resolution) => [ratio, resolution] as const)))(
    'gives gpt-image-2 %s at %s as a legal size within 1 % of the ratio',
    (ratio, resolution) => {
      const rule = of('gpt-image-2').customSizes;
      const plan = planRatio(of('gpt-image-2'), ratio, resolution);
      expect(plan).toBeDefined();
      const { width, height } = plan!.size;
      expect(rule && sizeProblem(width, height, rule)).toBeUndefined();
      expect(Math.abs(width / height / ratioValue(ratio) - 1)).toBeLessThanOrEqual(0.01);
    },
  );

  it('takes the long side from the resolution, capped by the model, and marks sizes above its experimental bound', () => {
    expect(planRatio(of('gpt-image-2'), '16:9', '2K')).toEqual({ size: { width: 2048, height: 1152 }, experimental: false, native: false });
    expect(planRatio(of('gpt-image-2'), '16:9', '4K')).toEqual({ size: { width: 3840, height: 2160 }, experimental: true, native: false });
    expect(planRatio(of('gpt-image-2'), '1:1', '1K')?.size).toEqual({ width: 1024, height: 1024 });
    const square4k = planRatio(of('gpt-image-2'), '1:1', '4K')!.size;
    expect(square4k.width * square4k.height).toBeLessThanOrEqual(3840 * 2160);
  });

  it('gives a model with listed sizes the listed size of the ratio, and nothing for a ratio it has no size near', () => {
    expect(planRatio(of('gpt-image-1'), '3:2')?.size).toEqual({ width: 1536, height: 1024 });
    expect(planRatio(of('gpt-image-1'), '4:5')).toBeUndefined();
    expect(ratiosOf(of('dall-e-3')).map((r) => r.ratio)).toEqual(['1:1', '16:9', '9:16']);
    expect(ratiosOf(of('gpt-image-2')).map((r) => r.ratio)).toEqual([...ASPECT_RATIOS]);
    expect(resolutionsOf(of('gpt-image-1')).map((r) => r.resolution)).toEqual(['1K']);
    expect(resolutionsOf(of('gpt-image-2'), '16:9')).toEqual([
      { resolution: '1K', experimental: false },
      { resolution: '2K', experimental: false },
      { resolution: '4K', experimental: true },
    ]);
  });

  it('turns the request into a size, keeps the ratio, refuses a size beside it and a ratio the model cannot make', () => {
    expect(applyRatio({ prompt: 'p', ratio: '9:16' }, 'dall-e-3', of('dall-e-3'))).toEqual({ prompt: 'p', ratio: '9:16', size: { width: 1024, height: 1792 } });
    const square: GenerateRequest = { prompt: 'p', resolution: '2K' };
    expect(applyRatio(square, 'gpt-image-2', of('gpt-image-2')).size).toEqual({ width: 2048, height: 2048 });
    expect(applyRatio({ prompt: 'p', size: 'auto' }, 'gpt-image-2', of('gpt-image-2'))).toEqual({ prompt: 'p', size: 'auto' });
    expect(() => applyRatio({ prompt: 'p', size: { width: 1024, height: 1024 }, ratio: '1:1' }, 'gpt-image-2', of('gpt-image-2'))).toThrow(ImageInputError);
    const refusal = (() => {
      try {
        applyRatio({ prompt: 'p', ratio: '21:9' }, 'dall-e-3', of('dall-e-3'));
      } catch (err) {
        return err as ImageInputError;
      }
      return undefined;
    })();
    expect(refusal?.param).toBe('aspect_ratio');
  });

  it('passes a ratio the dialect takes as it is, the size only estimating it, and never sends both', () => {
    const native = { ...of('anything'), aspectRatios: ['16:9', '1:1'], resolutions: ['1K', '2K'] };
    const plan = planRatio(native, '16:9', '2K');
    expect(plan?.native).toBe(true);
    expect(plan!.size.width * plan!.size.height).toBeGreaterThanOrEqual(2048 * 2048 * 0.99);
    const request = applyRatio({ prompt: 'p', ratio: '16:9', resolution: '2K' }, 'm', native);
    const wire = Object.fromEntries([...buildWireParams(request, 'm', {}, native)].map(([name, value]) => [name, wireValue(value)]));
    expect(wire).toMatchObject({ aspect_ratio: '16:9', resolution: '2K' });
    expect(wire).not.toHaveProperty('size');
  });
});
