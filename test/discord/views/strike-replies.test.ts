/**
 * What admins and members read about moderation strikes, in their language: /usage's strikes, pauses and who is
 * paused now (the ten back soonest, the count naming them all); /quota show's pause or strikes; /quota
 * strikes-clear's answer. Times are Discord timestamps, which each client writes in its own language.
 */
import { describe, expect, it } from 'vitest';
import { renderStrikes, renderStrikesCleared } from '../../../src/discord/views/quota-text.js';
import { renderStrikeReport } from '../../../src/discord/views/usage-text.js';

const UNTIL = 1_780_000_000_000;
const member = (i: number) => `2000000000000000${String(i).padStart(2, '0')}`;

describe('moderation strikes in /usage', () => {
  it('says nothing while strikes are off, and reports a quiet period in English', () => {
    expect(renderStrikeReport(undefined, 'en-US')).toEqual([]);
    expect(renderStrikeReport({ strikes: 0, pauses: 0, paused: [] }, 'en-US')).toEqual([
      'Moderation: 0 requests declined (strikes) · 0 pauses',
      'Paused now: nobody',
    ]);
  });

  it('lists the ten members back soonest in Japanese and counts them all', () => {
    const paused = Array.from({ length: 12 }, (_, i) => ({ userId: member(i), until: UNTIL + i * 1000 }));
    const [counts, now] = renderStrikeReport({ strikes: 31, pauses: 12, paused }, 'ja');
    expect(counts).toBe('モデレーション：拒否 31 件（警告）· 一時停止 12 回');
    expect(now).toMatch(/^現在一時停止中：12 人 — <@200000000000000000>（<t:1780000000:f>まで）、/);
    expect(now).toContain(`<@${member(9)}>（<t:1780000009:f>まで）`);
    expect(now).not.toContain(member(10));
  });

  it('uses the plural rules of Russian', () => {
    expect(renderStrikeReport({ strikes: 3, pauses: 1, paused: [{ userId: member(1), until: UNTIL }] }, 'ru')).toEqual([
      'Модерация: 3 отклонённых запроса (предупреждения) · 1 пауза',
      `Сейчас на паузе: 1 — <@${member(1)}> до <t:1780000000:f>`,
    ]);
  });
});

describe('moderation strikes in /quota', () => {
  const status = { strikes: 0, limit: 3, windowHours: 24 };

  it('shows a member their pause, or their strikes when there are any, in their language', () => {
    expect(renderStrikes(undefined, undefined, 'de')).toBeUndefined();
    expect(renderStrikes(status, undefined, 'de')).toBeUndefined();
    expect(renderStrikes({ ...status, strikes: 2 }, undefined, 'de')).toBe(
      '-# Von der Moderation abgelehnt in den letzten 24 Stunden: 2 von 3 bis zu einer Pause',
    );
    expect(renderStrikes({ ...status, pausedUntil: UNTIL }, undefined, 'ja')).toBe(
      '⏸️ あなたの画像生成は<t:1780000000:f>まで一時停止されています：画像サービスの安全システムが拒否したリクエストが多すぎました。',
    );
    expect(renderStrikes({ ...status, pausedUntil: UNTIL }, '<@42>', 'en-US')).toBe(
      "⏸️ <@42> is paused from generating images until <t:1780000000:f>: the image service's safety system declined too many requests.",
    );
  });

  it('answers strikes-clear with the pause it lifted, or the strikes it cleared', () => {
    expect(renderStrikesCleared('42', { ...status, pausedUntil: UNTIL }, 'fr')).toBe(
      '✅ La suspension de <@42> (jusqu’au <t:1780000000:f>) a été levée et ses avertissements de modération effacés.',
    );
    expect(renderStrikesCleared('42', { ...status, strikes: 2 }, 'en-US')).toBe("✅ Cleared <@42>'s moderation strikes (was 2).");
  });
});
