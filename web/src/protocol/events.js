// Events a game peer reports to its interface (the terminal or the browser): plain frozen objects
// with a `type`. The interface draws them and answers `your_turn` and `terms_proposed`.
//
//   paired          {seat, sas, fingerprints, identityKeys}  the handshake is done
//   terms_proposed  {terms}                                  seat 1 must accept or refuse
//   terms           {terms}                                  the terms both signed
//   first_dealer    {dealer, cards}
//   deal            {deal, roundIndex, dealer, month}
//   reveal          {deal, positions, cards, to}             cards this seat now sees
//   your_turn       {kind, options}                          decide among the legal actions
//   action          {seat, action, deal}
//   round_over      {deal, roundIndex, result, scores}
//   match_over      {scores, winner, result, resultFile}
//   failure         {reason, detail, blame, seq, evidence}   the match stopped

/**
 * @param {string} type @param {{[key: string]: unknown}} fields
 * @returns {Readonly<{type: string, [key: string]: unknown}>}
 */
export function event(type, fields = {}) {
  return Object.freeze({ type, ...fields });
}
