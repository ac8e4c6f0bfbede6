/**
 * The recoveries, each tried at most once per logical request. Two the gateway's own documentation asks for: a
 * rejected custom size is retried with the standard size of the nearest aspect ratio (rule 4), and a parameter the
 * model does not know is dropped (rule 6). And one for relays that cannot stream: a 400 naming `stream` or
 * `partial_images`, whatever its wording, is retried without streaming (the client then asks that model without
 * it for an hour, gateway-client.ts).
 *
 * @see ../../../shared/docs/gateway-interface.md "Behaviour rules" 4 and 6
 */
import { isCustomSize, nearestStandardSize, type Size } from '../core/sizes.js';
import { isUnsupportedParameter } from './classify.js';
import { GatewayHttpError } from './errors.js';
import { DROPPABLE_PARAMS, withParam, withoutParam, type WireParams } from './params.js';

/** What has been tried so far for one logical request. */
export interface RecoveryState {
  sizeFallback?: { requested: Size; used: Size } | undefined;
  droppedParams: string[];
}

/** The changed fields for the next try, or undefined when the failure is not one we recover from. */
export function planRecovery(err: unknown, params: WireParams, state: RecoveryState): WireParams | undefined {
  if (!(err instanceof GatewayHttpError) || err.category !== 'bad_parameter' || !err.param) return undefined;
  const size = params.get('size');
  if (err.param === 'size' && !state.sizeFallback && typeof size === 'object' && isCustomSize(size)) {
    const used = nearestStandardSize(size);
    state.sizeFallback = { requested: size, used };
    return withParam(params, 'size', used);
  }
  if ((err.param === 'stream' || err.param === 'partial_images') && state.droppedParams.length === 0 && params.has('stream')) {
    const next = withoutParam(params, 'stream');
    state.droppedParams = next.dropped;
    return next.params;
  }
  // A transparent background the model refuses is not dropped: an opaque image is not what the member asked for.
  if (err.param === 'background' && params.get('background') === 'transparent') return undefined;
  const droppable = (DROPPABLE_PARAMS as readonly string[]).includes(err.param);
  const unsupported = isUnsupportedParameter({ code: err.code, message: err.message });
  if (droppable && unsupported && state.droppedParams.length === 0 && params.has(err.param)) {
    const next = withoutParam(params, err.param);
    state.droppedParams = next.dropped;
    return next.params;
  }
  return undefined;
}
