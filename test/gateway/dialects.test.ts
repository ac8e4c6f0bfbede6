/**
 * The dialect GATEWAY_DIALECT names, as the composition root builds it.
 */
import { describe, expect, it } from 'vitest';
import { createDialect } from '../../src/gateway/dialects.js';
import { openAiDialect } from '../../src/gateway/openai-dialect.js';

describe('createDialect', () => {
  it('builds the named dialect, each with its key header and routes', () => {
    const base = { baseUrl: 'https://gw.internal/v1', apiVersion: '2024-10-21' };
    expect(createDialect({ ...base, name: 'openai' })).toBe(openAiDialect);
    const openRouter = createDialect({ ...base, name: 'openrouter' });
    expect(openRouter).toMatchObject({ name: 'openrouter', keyHeader: 'authorization' });
    expect(openRouter.chatRoute('openai/gpt-4o-mini')).toEqual({ path: '/chat/completions', model: 'openai/gpt-4o-mini' });
    const azure = createDialect({ ...base, baseUrl: 'https://res.openai.azure.com', name: 'azure', deployments: new Map([['gpt-image-1', 'images']]) });
    expect(azure).toMatchObject({ name: 'azure', keyHeader: 'api-key' });
    expect(azure.chatRoute('gpt-image-1').path).toBe('/openai/deployments/images/chat/completions?api-version=2024-10-21');
    // Without a map (config.ts requires one), a model's deployment is named like it.
    expect(createDialect({ ...base, baseUrl: 'https://res.openai.azure.com', name: 'azure' }).chatRoute('m')).toEqual({
      path: '/openai/deployments/m/chat/completions?api-version=2024-10-21',
      model: 'm',
    });
    expect(openAiDialect.chatRoute('gpt-4o-mini')).toEqual({ path: '/chat/completions', model: 'gpt-4o-mini' });
  });
});
