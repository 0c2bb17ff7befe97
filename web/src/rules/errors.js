// Errors of the rules engine (spec/rules.md §12). Every error carries a machine-readable
// `reason`; callers branch on `instanceof` and `reason`, never on the message text.

/** Base error of the rules engine: bad input or a misuse of the API. */
export class RulesError extends Error {
  /**
   * @param {string} reason machine-readable reason, one of spec/rules.md §12
   * @param {string} [detail] human-readable explanation
   */
  constructor(reason, detail = '') {
    super(detail ? `${reason}: ${detail}` : reason);
    this.name = 'RulesError';
    /** @type {string} */
    this.reason = reason;
  }
}

/** An action the rules forbid (spec/rules.md §10.3, §12). */
export class IllegalMove extends RulesError {
  /**
   * @param {string} reason
   * @param {string} [detail]
   */
  constructor(reason, detail = '') {
    super(reason, detail);
    this.name = 'IllegalMove';
  }
}

/** A revealed card that contradicts what the engine already knows (spec/rules.md §10.2). */
export class InconsistentReveal extends RulesError {
  /**
   * @param {string} reason
   * @param {string} [detail]
   */
  constructor(reason, detail = '') {
    super(reason, detail);
    this.name = 'InconsistentReveal';
  }
}
