import { describe, expect, it } from 'vitest';
import { applyRatio } from '../../src/core/aspect-ratios.js';
import { ModelProfiles } from '../../src/core/model-profiles.js';
import { DEFAULT_SETTINGS } from '../../src/core/server-settings.js';
import { UserFacingError } from '../../src/errors.js';
import { applySettings, checkServerSize } from '../../src/service/server-settings.js';

const member = { channelId: '400000000000000001', manager: false, ageRestricted: false, roleIds: [] };
const settings = { ...DEFAULT_SETTINGS, defaults: { size: { width: 1024, height: 1024 } }, maxSize: { width: 1536, height: 1024 } };
const gptImage2 = new ModelProfiles().of('gpt-image-2').profile;

describe("the server's sizes and a ratio", () => {
  it("fills the server's default size only when the member asked for no ratio or resolution", () => {
    expect(applySettings({ prompt: 'p' }, settings, member).size).toEqual({ width: 1024, height: 1024 });
    expect(applySettings({ prompt: 'p', ratio: '16:9' }, settings, member).size).toBeUndefined();
    expect(applySettings({ prompt: 'p', resolution: '2K' }, settings, member).size).toBeUndefined();
  });

  it("holds the size a ratio becomes to the server's largest size, for members and not for managers", () => {
    const asked = applyRatio(applySettings({ prompt: 'p', ratio: '16:9', resolution: '2K' }, settings, member), 'gpt-image-2', gptImage2);
    expect(() => checkServerSize(asked, settings, member)).toThrow(UserFacingError);
    expect(() => checkServerSize(asked, settings, { manager: true })).not.toThrow();
    const small = applyRatio({ prompt: 'p', ratio: '16:9' }, 'gpt-image-2', gptImage2);
    expect(() => checkServerSize(small, settings, member)).not.toThrow();
  });
});
