// One error base for the deck layer, with the machine-readable reasons of spec/crypto.md §8.8.

export class MentalPokerError extends Error {
  /**
   * @param {string} reason machine-readable reason (spec/crypto.md §8.8)
   * @param {string} [detail]
   */
  constructor(reason, detail) {
    super(detail ? `${reason}: ${detail}` : reason);
    this.name = 'MentalPokerError';
    this.reason = reason;
  }
}

/** A failure caused by received data (a peer's message). */
export class VerificationError extends MentalPokerError {
  /** @param {string} reason @param {string} [detail] */
  constructor(reason, detail) {
    super(reason, detail);
    this.name = 'VerificationError';
  }
}

/** A bug of the caller (spec/crypto.md §8.8, reasons for local misuse). */
export class UsageError extends MentalPokerError {
  /** @param {string} reason @param {string} [detail] */
  constructor(reason, detail) {
    super(reason, detail);
    this.name = 'UsageError';
  }
}

/** A group operation libsodium refuses (spec/crypto.md §2.6): a zero scalar or an identity result. */
export class DegenerateError extends MentalPokerError {
  /** @param {string} [detail] */
  constructor(detail) {
    super('degenerate', detail);
    this.name = 'DegenerateError';
  }
}
