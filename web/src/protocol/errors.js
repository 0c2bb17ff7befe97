// One error base for the session and game layers, with the machine-readable reasons of
// spec/protocol.md §2.4 and spec/game.md §9, and whose fault it is.

export class ProtocolError extends Error {
  /**
   * @param {string} reason machine-readable reason
   * @param {string} [detail]
   */
  constructor(reason, detail) {
    super(detail ? `${reason}: ${detail}` : reason);
    this.name = 'ProtocolError';
    this.reason = reason;
    this.detail = detail ?? '';
  }
}

/** A bug of the caller (a wrong state, a value that cannot be encoded); never caused by received data. */
export class LocalError extends ProtocolError {
  /** @param {string} reason @param {string} [detail] */
  constructor(reason, detail) {
    super(reason, detail);
    this.name = 'LocalError';
  }
}

/**
 * A deviation of the other peer or of the relay (spec/protocol.md §2.4), with its evidence.
 */
export class RemoteViolation extends ProtocolError {
  /**
   * @param {string} reason
   * @param {string} [detail]
   * @param {{frame?: Uint8Array, envelope?: Uint8Array, signature?: Uint8Array, seq?: number, peerFault?: boolean, [key: string]: unknown}} [evidence]
   */
  constructor(reason, detail, evidence = {}) {
    super(reason, detail);
    this.name = 'RemoteViolation';
    this.evidence = evidence;
  }
}

/** A value that is not canonical msgpack (spec/protocol.md §3). */
export class CodecError extends ProtocolError {
  /** @param {string} [detail] */
  constructor(detail) {
    super('non_canonical', detail);
    this.name = 'CodecError';
  }
}
