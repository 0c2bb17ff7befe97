// The rules' descriptions as messages, the twin of koikoi_p2p/rules/describe.py: a profile's
// summary and yaku table, each sentence a Phrase (the English template, which is the catalogue's
// message id, and the values put in it), so a client renders it from its catalogue and the two
// clients cannot drift. The rules package knows no language: the templates are the English
// message ids, a Word is a yaku id a client names in its own words. spec/vectors/rules/describe.json
// (written by spec/vectors/generators/describe_vectors.py) holds the Python's phrases for every
// preset and random switch sets; web/test/rules/describe.test.js checks this file gives the same.

/**
 * @typedef {{ t: string, v: Record<string, PhraseValue> }} Phrase a template and its values
 * @typedef {{ word: string }} Word a machine word (a yaku or card id) a translation names in words
 * @typedef {Phrase | Word | string | number} PhraseValue
 */

/** @param {string} t @param {Record<string, PhraseValue>} [v] @returns {Phrase} */
const P = (t, v = {}) => ({ t, v });

/** The empty phrase: a part that adds nothing. */
export const NOTHING = Object.freeze(P(''));

/**
 * `a, b, c` as nested phrases (a translation joins them its own way).
 * @param {PhraseValue[]} items @returns {PhraseValue}
 */
function listed(items) {
  if (items.length === 1) return items[0];
  return P('{first}, {rest}', { first: items[0], rest: listed(items.slice(1)) });
}

/** "; not with the rain man in the pile" for a viewing yaku's cancelling cards. @param {readonly string[]} ids */
function cancelled(ids) {
  if (!ids.length) return NOTHING;
  // Card ids as words: each client names the card (spec/glossary.md), never the id.
  if (ids.length === 1) return P('; not with {cards} in the pile', { cards: { word: ids[0] } });
  return P('; not with any of {cards} in the pile', { cards: listed(ids.map((id) => ({ word: id }))) });
}

/**
 * The enabled hand yaku and their points, in the spec's id order (as Python's profile keeps them).
 * @param {any} p @returns {[string, number][]}
 */
function handYaku(p) {
  const hy = /** @type {Record<string, number>} */ (p.hand_yaku);
  return ['teshi', 'kuttsuki', 'tenho', 'double_tenho'].filter((id) => Object.hasOwn(hy, id)).map((id) => [id, hy[id]]);
}

/**
 * Every yaku the profile scores: id, points (base), and the rule as a Phrase.
 * @param {import('./profile.js').Profile} profile
 * @returns {{ id: string, points: number, rule: Phrase }[]}
 */
export function yakuTable(profile) {
  const p = /** @type {any} */ (profile.allSwitches());
  const [goko, shiko, ame, sanko] = p.bright_values;
  const ext = p.named_extension;
  /** @type {[string, number, Phrase][]} */
  let rows;
  if (p.brights_add) {
    rows = [
      ['goko', goko, P('all five brights')],
      ['shiko', shiko, P('the four brights other than the rain man')],
      ['ame_shiko', ame, P('the rain man and three other brights')],
      ['sanko', sanko, P('{which} (bright yaku add up: five brights score all four)', {
        which: p.sanko_with_rain ? P('any three brights') : P('three brights other than the rain man'),
      })],
    ];
  } else {
    rows = [
      ['goko', goko, P('all five brights')],
      ['shiko', shiko, P('four brights without the rain man')],
      ['ame_shiko', ame, P('four brights with the rain man')],
      ['sanko', sanko, P('{which} (only the highest bright yaku counts)', {
        which: p.sanko_with_rain ? P('three brights, the rain man included or not') : P('three brights without the rain man'),
      })],
    ];
  }
  if (p.viewing !== 'off') {
    let cond = p.viewing === 'bonus_only' ? P(' (only beside a basic yaku)') : NOTHING;
    if (p.viewing_by_call) cond = P('{cond}; 3 once its holder has called koi-koi in the round', { cond });
    const view = p.viewing_by_call ? 1 : 5;
    rows.push(['hanami', view, P('cherry curtain and sake cup{cond}{cancelled}', { cond, cancelled: cancelled(p.hanami_cancelled_by) })]);
    rows.push(['tsukimi', view, P('full moon and sake cup{cond}{cancelled}', { cond, cancelled: cancelled(p.tsukimi_cancelled_by) })]);
  }
  const plusR = ext ? P(', +1 per other ribbon') : NOTHING;
  rows.push(['inoshikacho', 5, P('boar, deer, butterflies{plus}', { plus: ext ? P(', +1 per other animal') : NOTHING })]);
  rows.push(['akatan', 5, P('the three poetry ribbons{plus}', { plus: plusR })]);
  if (p.ribbon_pair === 'chofuku_10') {
    rows.push(['aotan', 5, P('the three blue ribbons{plus}', { plus: plusR })]);
    rows.push(['akatan_aotan', 10, P('all six poetry and blue ribbons, instead of akatan and aotan{plus}', { plus: plusR })]);
  } else {
    rows.push(['aotan', 5, P('the three blue ribbons (with akatan: both count){plus}', { plus: plusR })]);
    if (p.akatan_aotan_on_top) {
      rows.push(['akatan_aotan', 10, P('all six poetry and blue ribbons, on top of akatan and aotan{plus}', { plus: plusR })]);
    }
  }
  const cup = p.cup_either ? P(' (the sake cup included, or counted as a plain if that scores more)') : P(' (the sake cup included)');
  rows.push(['tane', 1, P('five animals{cup}, +1 per extra{beside}{joker}', {
    cup,
    beside: p.tane_with_inoshikacho ? NOTHING : P('; not beside inoshikacho'),
    joker: p.joker_card ? P('; {card} may count here or as a plain', { card: { word: p.joker_card } }) : NOTHING,
  })]);
  rows.push(['tan', 1, P('five ribbons, +1 per extra{beside}', {
    beside: p.tan_with_ribbon_yaku ? NOTHING : P('; not beside akatan, aotan, akatan-aotan'),
  })]);
  rows.push(['kasu', 1, P('ten plains, +1 per extra{cup}', { cup: p.cup_is_plain ? P('; the sake cup is a plain too') : NOTHING })]);
  if (p.monthly_yaku_points) {
    rows.push(['tsukifuda', p.monthly_yaku_points, p.monthly_yaku_scope === 'current_month'
      ? P("all four cards of the round's month") : P('all four cards of any month (each)')]);
  }
  /** @type {Record<string, Phrase>} */
  const handRules = {
    teshi: P('dealt hand: all four cards of a month'),
    kuttsuki: P('dealt hand: four pairs of different months'),
    tenho: P('dealt hand: four cards of a month, or four pairs'),
    double_tenho: P('dealt hand: two months of four'),
  };
  for (const [yaku, points] of handYaku(p)) {
    rows.push([yaku, points, P('{hand}; ends the round, never multiplied', { hand: handRules[yaku] })]);
  }
  if (p.exhaustion !== 'draw') {
    rows.push(['oya_ken', p.oya_ken_points, P("dealer's points when the hands run out{unless}", {
      unless: p.exhaustion === 'last_caller_scores_else_oya_ken' ? P(' and nobody called') : NOTHING,
    })]);
  }
  return rows.map(([id, points, rule]) => ({ id, points, rule }));
}

/**
 * How a match under `profile` plays and scores, in a few sentences, each a Phrase.
 * @param {import('./profile.js').Profile} profile
 * @returns {Phrase[]}
 */
export function summary(profile) {
  const p = /** @type {any} */ (profile.allSwitches());
  /** @type {Phrase[]} */
  const lines = [];
  lines.push(p.hand_capture === 'compulsory'
    ? P('Playing: a hand card that matches the field must be played when you hold one.')
    : P('Playing: any hand card may be played; a card that matches the field captures.'));
  let limit;
  if (p.max_calls_per_round === 1) {
    limit = p.call_limit === 'per_seat' ? P('one koi-koi call per player per round') : P('one koi-koi call per round');
  } else if (p.max_calls_per_round) {
    limit = p.call_limit === 'per_seat'
      ? P('{n} koi-koi calls per player per round', { n: p.max_calls_per_round })
      : P('{n} koi-koi calls per round', { n: p.max_calls_per_round });
  } else if (p.after_call === 'next_improvement_ends_round') {
    // any call is allowed, but after one the next improvement ends the round: one in effect
    limit = P('one koi-koi call per round in effect (no limit is set, but the next improvement ends the round)');
  } else {
    limit = P('any number of koi-koi calls by either player');
  }
  const after = p.after_call === 'next_improvement_ends_round'
    ? P('the next yaku made or raised by either player ends the round') : P('the round goes on until someone stops');
  let last;
  if (p.stop_on_own_last_turn) last = P("; on each player's own last turn only stop is offered");
  else last = p.last_turn_stop_only ? P('; on the last turn only stop is offered') : NOTHING;
  lines.push(P('Koi-koi: {limit}; after a call {after}{last}.', { limit, after, last }));
  const doubling = p.double_threshold ? P('a base of {n} or more doubles', { n: p.double_threshold }) : P('no doubling for a high base');
  const multiplier = /** @type {Record<string, Phrase>} */ ({
    opponent_flat_x2: P("x2 when the winner's opponent had called (own calls never multiply)"),
    shared_one_plus_calls: P('x(1 + all calls by both players), whoever wins'),
    winner_pow2: P('x2 for each call by the winner; nothing extra for beating a caller'),
    none: P('calls multiply nothing'),
  })[p.koikoi_multiplier];
  let base;
  if (!p.single_yaku) base = P('the base (sum of yaku)');
  else if (p.single_yaku_scope === 'extensions') {
    base = P('the base (sum of yaku; of a yaku and its extensions only the highest counts: the bright yaku, inoshikacho or tane, tan or a ribbon yaku, akatan-aotan or akatan and aotan)');
  } else base = P('the base (the single highest yaku)');
  let pays = /** @type {Record<string, Phrase>} */ ({
    off: NOTHING,
    times_calls: P('; a loser who called pays that times the number of its calls (one call x1, two x2)'),
    doubled_per_call: P('; a loser who called pays that doubled for each of its calls (one call x2, two x4)'),
  })[p.caller_pays_more];
  if (p.koikoi_bonus === 'winner_add') {
    pays = P("{pays}; then the winner's own calls add 1, 2 or 3 points, and from four calls multiply by the number of calls less 2", { pays });
  }
  lines.push(P('Round score: {base}; {doubling}; then {multiplier}{pays}.', { base, doubling, multiplier, pays }));
  const exhaustion = /** @type {Record<string, Phrase>} */ ({
    draw: P('nobody scores'),
    oya_ken: P('the dealer scores {n} (oya-ken), even against a caller', { n: p.oya_ken_points }),
    last_caller_scores_else_oya_ken: P('the last caller scores their yaku; with no call the dealer scores {n} (oya-ken)', { n: p.oya_ken_points }),
  })[p.exhaustion];
  const afterDraw = p.dealer_after_draw === 'same' ? P('the same dealer deals again') : P('the other player deals');
  lines.push(P('Hands run out: {exhaustion}. The winner deals next; after a round nobody won, {after}.', { exhaustion, after: afterDraw }));
  const hand = handYaku(p);
  if (hand.length) {
    const named = listed(hand.map(([key, points]) => P('{yaku} {points}', { yaku: { word: key }, points })));
    const both = p.hand_yaku_both === 'void_redeal' ? P('the deal is void and dealt again') : P("the dealer's counts");
    lines.push(P('Dealt hands: {named} end the round at once, never multiplied; if both players hold one, {both}.', { named, both }));
  }
  const wholeField = p.field_whole_month === 'redeal' ? P(', as is a field holding a whole month.') : P('.');
  if (p.hand_whole_month === 'redeal') {
    lines.push(P('Deal: a hand holding all four cards of a month is shown and dealt again{field}', { field: wholeField }));
  }
  if (p.field_four_pairs === 'redeal') {
    lines.push(P('Deal: a field of four pairs is dealt again{month}', { month: wholeField }));
  }
  let pool;
  if (p.pool_start) {
    let bust = NOTHING;
    if (p.bust_ends_game) bust = p.transfer_cap ? P('; a player who reaches 0 loses at once') : P('; a player at 0 or less loses at once');
    pool = P('Scores: each player starts with a pool of {n}; the loser pays the winner{cap}{bust}.', {
      n: p.pool_start, cap: p.transfer_cap ? P(', at most what they have left') : NOTHING, bust,
    });
  } else if (p.subtract_from_opponent) {
    pool = P("Scores: from 0; the winner's points are also taken off the loser (scores may go below 0).");
  } else {
    pool = P('Scores: round scores add up from 0.');
  }
  lines.push(pool);
  /** @type {Phrase[]} */
  const end = [];
  if (p.rounds) end.push(p.rounds === 1 ? P('after 1 round the higher score wins') : P('after {n} rounds the higher score wins', { n: p.rounds }));
  if (p.target_score) end.push(p.target_score === 1 ? P('the first player to reach 1 point wins') : P('the first player to reach {n} points wins', { n: p.target_score }));
  const tie = p.match_tie === 'draw' ? P('equal scores are a drawn match') : P('equal scores play extra rounds');
  const first = /** @type {Record<string, Phrase>} */ ({
    card_draw: P('each player draws a card from the shuffled deck and the earlier month deals first{tie}; equal draws draw again', {
      tie: p.first_dealer_tie === 'redraw' ? NOTHING : P('; in one month the higher class'),
    }),
    coin: P('a fair coin from the jointly shuffled deck picks the first dealer'),
    host: P('the host deals first'),
    joiner: P('the joiner deals first'),
  })[p.first_dealer];
  const ends = end.length === 2 ? P('{first}; {second}', { first: end[0], second: end[1] }) : end.length ? end[0] : NOTHING;
  lines.push(P('Match: {end}; {tie}; {first}.', { end: ends, tie, first }));
  return lines;
}

/**
 * A phrase in English (its templates filled in), as Python's Phrase reads as a str.
 * @param {PhraseValue} part @returns {string}
 */
export function english(part) {
  if (typeof part === 'string') return part;
  if (typeof part === 'number') return String(part);
  if ('word' in part) return part.word;
  return part.t.replace(/\{(\w+)\}/g, (_, k) => english(part.v[k]));
}
