/**
 * Errors thrown by the storage layer. Both mean "refuse the request": storage fails closed, so the
 * service never calls the gateway when it cannot account for the images.
 */

/** Stable identifiers, so callers can branch without importing the classes. */
type StorageErrorCode = 'storage.unavailable' | 'storage.corrupt';

/** Base class of every storage failure. */
class StorageError extends Error {
  override name = 'StorageError';
  readonly code: StorageErrorCode;

  constructor(code: StorageErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/**
 * The store could not be reached or an operation on it failed (connection refused, timeout, closed store,
 * driver error). Wraps the driver error as `cause`. The message names the scheme and host, never credentials.
 */
export class StorageUnavailableError extends StorageError {
  override name = 'StorageUnavailableError';

  constructor(message: string, options?: { cause?: unknown }) {
    super('storage.unavailable', message, options);
  }
}

/**
 * A member's usage record could not be read (not JSON, or not the expected shape/version). The ledger refuses
 * to reserve, commit or refund against it until an admin resets the member's usage, which overwrites it.
 */
export class StorageCorruptError extends StorageError {
  override name = 'StorageCorruptError';
  /** The record's kind, e.g. `usage`; never the raw value. */
  readonly record: string;

  constructor(record: string, message: string) {
    super('storage.corrupt', message);
    this.record = record;
  }
}
