import { describe, expect, it } from 'vitest';
import { errorMessageId, USER_ERROR_IDS } from '../../src/core/member-messages.js';
import { PHRASE_IDS } from '../../src/core/phrase.js';
import { CATALOGUES } from '../../src/i18n/locales.js';

describe('one id space for member messages', () => {
  const ids = [...USER_ERROR_IDS.map(errorMessageId), ...PHRASE_IDS];

  it('names each message once, errors and phrases together', () => {
    expect(new Set(ids).size).toBe(ids.length);
    expect(errorMessageId('quota.exceeded')).toBe('error.quota.exceeded');
  });

  it('has every id in every catalogue', () => {
    for (const [locale, catalogue] of Object.entries(CATALOGUES)) {
      expect(
        ids.filter((id) => !(id in catalogue)),
        locale,
      ).toEqual([]);
    }
  });
});
