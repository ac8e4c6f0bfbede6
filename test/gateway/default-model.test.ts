import { describe, expect, it } from 'vitest';
import { DefaultModel, FALLBACK_DEFAULT_MODEL, preferredModels } from '../../src/gateway/default-model.js';
import { memoryLogger } from '../fakes/memory-logger.js';

const TODAY = '2026-11-23';
const clock = { now: () => Date.parse(`${TODAY}T12:00:00Z`) };
const listed = (...ids: string[]) => ids.map((id) => ({ id }));

describe('preferredModels', () => {
  it('puts GPT image models newest first (plain, variants, mini last), then chatgpt-image, dall-e-3, dall-e-2, others', () => {
    const ids = [
      'flux-pro',
      'dall-e-2',
      'gpt-image-1-mini',
      'dall-e-3',
      'gpt-image-1',
      'chatgpt-image-latest',
      'gpt-image-2.6-sunburst',
      'gpt-image-2',
      'gpt-4o-mini',
      'gpt-image-2.6',
    ];
    expect(preferredModels(listed(...ids), TODAY)).toEqual([
      'gpt-image-2.6',
      'gpt-image-2.6-sunburst',
      'gpt-image-2',
      'gpt-image-1',
      'gpt-image-1-mini',
      'chatgpt-image-latest',
      'dall-e-3',
      'dall-e-2',
      'flux-pro',
    ]);
  });

  it('never offers a model that has shut down, and one that will only after every model that will not', () => {
    const models = [
      { id: 'gpt-image-2' },
      { id: 'gpt-image-1.5', shutdownDate: '2026-12-01' },
      { id: 'gpt-image-2.5', shutdownDate: '2026-11-01' },
      { id: 'dall-e-3' },
    ];
    expect(preferredModels(models, TODAY)).toEqual(['gpt-image-2', 'dall-e-3', 'gpt-image-1.5']);
  });
});

describe('DefaultModel', () => {
  it('uses the best listed model without DEFAULT_IMAGE_MODEL, and says so once', () => {
    const { logger, lines } = memoryLogger();
    const model = new DefaultModel({ host: 'gw:1', clock, logger });
    expect(model.current).toBe(FALLBACK_DEFAULT_MODEL);
    model.update(listed('dall-e-3', 'gpt-image-2'));
    model.update(listed('dall-e-3', 'gpt-image-2'));
    expect(model.current).toBe('gpt-image-2');
    expect(lines.map((l) => l.msg)).toEqual(['default image model: gpt-image-2, the best the gateway at gw:1 lists (set DEFAULT_IMAGE_MODEL to choose one)']);
  });

  it('keeps DEFAULT_IMAGE_MODEL while it is listed, and warns once and uses a listed one when it is not', () => {
    const { logger, lines } = memoryLogger();
    const model = new DefaultModel({ configured: 'gpt-image-1', host: 'gw:1', clock, logger });
    model.update(listed('gpt-image-1', 'gpt-image-2'));
    expect(model.current).toBe('gpt-image-1');
    model.update(listed('gpt-image-2', 'dall-e-3'));
    model.update(listed('gpt-image-2', 'dall-e-3'));
    expect(model.current).toBe('gpt-image-2');
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [40, 'DEFAULT_IMAGE_MODEL gpt-image-1 is not listed by the gateway at gw:1 (image models: gpt-image-2, dall-e-3): using gpt-image-2 instead'],
    ]);
    model.update(listed('gpt-image-1'));
    expect(model.current).toBe('gpt-image-1');
  });

  it('logs the shutdown date of the model in use once a day', () => {
    const { logger, lines } = memoryLogger();
    let now = clock.now();
    const model = new DefaultModel({ configured: 'gpt-image-1.5', host: 'gw:1', clock: { now: () => now }, logger });
    const models = [{ id: 'gpt-image-1.5', shutdownDate: '2026-12-01' }, { id: 'gpt-image-2' }];
    model.update(models);
    model.update(models);
    now += 86_400_000;
    model.update(models);
    expect(lines.map((l) => l.msg)).toEqual([
      'default image model gpt-image-1.5 shuts down on 2026-12-01 (in 8 days, says the gateway at gw:1): set DEFAULT_IMAGE_MODEL to another model',
      'default image model gpt-image-1.5 shuts down on 2026-12-01 (in 7 days, says the gateway at gw:1): set DEFAULT_IMAGE_MODEL to another model',
    ]);
  });

  it('replaces a configured model that has shut down, saying when', () => {
    const { logger, lines } = memoryLogger();
    const model = new DefaultModel({ configured: 'gpt-image-1', host: 'gw:1', clock, logger });
    model.update([{ id: 'gpt-image-1', shutdownDate: '2026-10-01' }, { id: 'gpt-image-2' }]);
    expect(model.current).toBe('gpt-image-2');
    expect(lines[0]?.msg).toBe(
      'DEFAULT_IMAGE_MODEL gpt-image-1 shut down on 2026-10-01 (says the gateway at gw:1) (image models: gpt-image-2): using gpt-image-2 instead',
    );
  });
});

describe('shutdown dates in the model list', () => {
  it('reads Unix seconds and ISO dates as YYYY-MM-DD, and ignores anything else', async () => {
    const { ModelsResponse } = await import('../../src/gateway/schemas.js');
    const parsed = ModelsResponse.parse({
      data: [
        { id: 'a', shutdown_date: Date.parse('2026-12-01T00:00:00Z') / 1000 },
        { id: 'b', shutdown_date: '2027-01-15' },
        { id: 'c', shutdown_date: 'soon' },
        { id: 'd', shutdown_date: null },
        { id: 'e' },
      ],
    });
    expect(parsed.data.map((m) => m.shutdown_date)).toEqual(['2026-12-01', '2027-01-15', undefined, undefined, undefined]);
  });
});
