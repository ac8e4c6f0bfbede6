/**
 * Builders for service jobs and results, with realistic ids.
 */
import type { ImageJob } from '../../src/core/jobs.js';
import type { GeneratedImage, GenerateRequest, ImageResult } from '../../src/core/images.js';
import type { QuotaSubject } from '../../src/core/quota.js';

export const GUILD_ID = '300000000000000001';
export const MEMBER_ID = '200000000000000001';

let counter = 0;

/** The quota subject of a member of the test server. */
export function memberSubject(userId = MEMBER_ID): QuotaSubject {
  return { guildId: GUILD_ID, userId, roleIds: [] };
}

/** An /imagine job; every call gets a fresh id. */
export function imagineJob(request: Partial<GenerateRequest> = {}, userId = MEMBER_ID): ImageJob {
  counter += 1;
  return {
    id: `job${String(counter).padStart(9, '0')}`,
    kind: 'imagine',
    subject: memberSubject(userId),
    origin: { guildId: GUILD_ID, channelId: '400000000000000001', requesterId: userId },
    request: { prompt: 'a lighthouse at dusk', ...request },
  };
}

/** A gateway result carrying `images`. */
export function imageResult(images: GeneratedImage[], extra: Partial<ImageResult> = {}): ImageResult {
  return { images, model: 'gpt-image-1', droppedParams: [], requestId: 'req_123', ...extra };
}
