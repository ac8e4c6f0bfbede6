/**
 * The environment of a real bot process (`src/cli.ts`, as `npm start` runs it) pointed at the emulators: only
 * PATH is inherited, so no setting of the test run leaks in.
 */
import type { DiscordEmulator } from '../emulators/discord/index.js';
import type { GatewayEmulator } from '../emulators/gateway/index.js';

export function botProcessEnv(discord: DiscordEmulator, gateway: GatewayEmulator, settings: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '',
    DISCORD_TOKEN: discord.token,
    DISCORD_API_URL: discord.apiUrl,
    DISCORD_CDN_HOSTS: discord.cdnHost,
    // The emulator serves its url items from its own origin on loopback: trusted as the gateway's, unlisted.
    GATEWAY_BASE_URL: gateway.baseUrl,
    GATEWAY_API_KEY: gateway.apiKey,
    GATEWAY_PARTIAL_IMAGES: '0',
    ...settings,
  };
}
