import { describe, expect, it } from 'vitest';
import { describeUnexpectedError, describeUserError, errorRef, UserFacingError } from '../../src/errors.js';

describe('member-facing errors in the member’s language', () => {
  it('words a quota refusal in Japanese and Simplified Chinese, with the reference id', () => {
    const error = new UserFacingError('quota.exceeded', { remaining: 0, limit: 5, requested: 2, resetsAt: 1_800_000_000_000 });
    expect(describeUserError(error, 'ref-1', undefined, 'ja')).toBe(
      '今のところ画像の枠を使い切りました：5 枚中、残り 0 枚で、このリクエストには 2 枚必要です。枠は<t:1800000000:R>にリセットされます。\n-# 管理者向け：`quota.exceeded` · 参照 `0REF-1`',
    );
    expect(describeUserError(error, 'ref-1', undefined, 'zh-CN')).toContain('你的图片额度暂时用完了：5 张中还剩 0 张，而这次需要 2 张');
  });

  it('keeps the English text for English and unknown locales', () => {
    const error = new UserFacingError('quota.exceeded', { remaining: 1, limit: 5 });
    const english = "You've used your images for now: 1 of 5 left. Your quota resets soon.\n-# For admins: `quota.exceeded` · ref `00000R`";
    expect(describeUserError(error, 'r')).toBe(english);
    expect(describeUserError(error, 'r', undefined, 'en-GB')).toBe(english);
    expect(describeUserError(error, 'r', undefined, 'hu')).toBe(english);
  });

  it('formats money and plurals for the language', () => {
    const spend = new UserFacingError('spend.exceeded', { estimateUsd: 0.5, remainingUsd: 0.004, limitUsd: 2 });
    expect(describeUserError(spend, 'r', undefined, 'de')).toMatch(/etwa 0,50\s\$ kosten/);
    expect(describeUserError(new UserFacingError('settings.tooMany', { limit: 1 }), 'r')).toMatch(/^This server allows at most 1 image per request/);
    expect(describeUserError(new UserFacingError('settings.tooMany', { limit: 4 }), 'r', undefined, 'ru')).toContain('не больше 4 изображений');
  });

  it('apologises in the member’s language', () => {
    expect(describeUnexpectedError('r', 'ko')).toBe('죄송합니다. 제 쪽에서 문제가 생겼어요. 다시 시도해 주세요.\n-# 관리자용: `unexpected` · 참조 `00000R`');
  });

  it("shows admins the error's code and a short reference instead of the interaction's snowflake", () => {
    expect(errorRef('1300000000000000042')).toBe('EANYGA');
    const text = describeUserError(new UserFacingError('quota.blocked'), '1300000000000000042');
    expect(text).toMatch(/\n-# For admins: `quota\.blocked` · ref `EANYGA`$/);
    expect(text).not.toContain('1300000000000000042');
  });
});
