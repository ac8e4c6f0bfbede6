/**
 * The gateway adapter: what main.ts and the service need from src/service/gateway.
 */
export { createGatewayAgent, type GatewayAgentOptions } from './agent.js';
export {
  GATEWAY_ERROR_CATEGORIES,
  GatewayCancelledError,
  GatewayConnectionError,
  GatewayError,
  GatewayHttpError,
  GatewayResponseError,
  GatewayTimeoutError,
  type GatewayErrorCategory,
} from './errors.js';
export { GatewayClient, type GatewayClientOptions } from './gateway-client.js';
export { isImageModel } from './models.js';
